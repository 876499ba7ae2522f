import { useTranslation } from 'react-i18next';
import type { OptionProblem } from './option-draft';

/** The translated message of a value the shared option check refuses. */
export function useProblemMessage(): (problem: OptionProblem) => string {
  const { t } = useTranslation();
  return (problem) => {
    const name = t(`settings.options.${problem.key}.label`);
    switch (problem.kind) {
      case 'json':
        return t('settings.errors.json', { name });
      case 'ratios':
        return t('settings.errors.ratios', { name });
      case 'integer':
        return t('settings.errors.integer', { name });
      case 'number':
        return t('settings.errors.number', { name });
      case 'other':
        return problem.message;
    }
  };
}
