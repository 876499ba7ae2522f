import type { CreateUserInput, UpdateSelfInput, UpdateUserInput, User } from '@switchyard/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';
import { usersKeys } from './users-list';

/** GET /api/user/{id} (admin) or GET /api/user/self when no id is given. */
export function useEditableUser(id: number | null) {
  return useQuery({
    queryKey: id === null ? usersKeys.self : usersKeys.one(id),
    queryFn: () => fetchData<User>(id === null ? '/api/user/self' : `/api/user/${id}`),
    staleTime: 0,
  });
}

/** GET /api/group/: group names for the admin's group select. */
export function useGroups(enabled: boolean) {
  return useQuery({
    queryKey: usersKeys.groups,
    queryFn: () => fetchData<string[]>('/api/group/').then((groups) => groups ?? []),
    enabled,
  });
}

/** Editing oneself goes to the self endpoint; an admin editing someone sends id, group and quota. */
export type UserChange = { self: true; input: UpdateSelfInput } | { self: false; input: UpdateUserInput };

/** PUT /api/user/ (admin editing someone) or PUT /api/user/self. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UserChange) =>
      change.self ? api.put('/api/user/self', change.input) : api.put('/api/user/', change.input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

/** POST /api/user/: create an account (role 1). */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateUserInput) => api.post('/api/user/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
