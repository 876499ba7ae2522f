/** Same keys in every language: a missing Chinese text fails the type check. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
