import type { AuditEntry } from '@switchyard/contract/audit';

/** One changed field: its value before and after (undefined when that side has none). */
export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

const shown = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields an entry changed, in a stable order: those of `before` first, then any only in `after`. */
export function fieldChanges(entry: Pick<AuditEntry, 'before' | 'after'>): FieldChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    ...(field in before ? { before: shown(before[field]) } : {}),
    ...(field in after ? { after: shown(after[field]) } : {}),
  }));
}

/** The i18n key of an action (`user.manage.promote` → `audit.actions.user_manage_promote`). */
export const actionKey = (action: string): string => `audit.actions.${action.replaceAll('.', '_')}`;

/**
 * The console's own label of each audited field, by target type: the i18n keys of the forms and lists
 * that show the field, `audit.fields.*` for what no form shows. An option's field is its key, labelled
 * as the settings page labels it.
 */
const FIELD_LABELS: Record<string, Record<string, string>> = {
  user: {
    username: 'userEdit.username',
    display_name: 'userEdit.displayName',
    role: 'users.table.role',
    status: 'users.table.status',
    email: 'userEdit.email',
    group: 'userEdit.group',
    quota: 'userEdit.quota',
    password: 'userEdit.password',
    access_token: 'audit.fields.access_token',
    github_id: 'userEdit.githubId',
    wechat_id: 'userEdit.wechatId',
    lark_id: 'audit.fields.lark_id',
    oidc_id: 'audit.fields.oidc_id',
    oidc_subject: 'audit.fields.oidc_subject',
    method: 'audit.fields.method',
  },
  token: {
    user_id: 'audit.fields.user_id',
    name: 'tokens.form.name',
    key: 'audit.fields.key',
    status: 'tokens.columns.status',
    expired_time: 'tokens.form.expiry',
    remain_quota: 'tokens.form.quota',
    unlimited_quota: 'tokens.form.unlimited',
    models: 'tokens.form.models',
    subnet: 'tokens.form.subnet',
  },
  channel: {
    type: 'channels.form.type',
    name: 'channels.form.name',
    key: 'channels.form.key',
    status: 'channels.columns.status',
    weight: 'channels.form.weight',
    base_url: 'channels.form.baseUrl.custom',
    other: 'audit.fields.other',
    models: 'channels.form.models',
    group: 'channels.form.groups',
    model_mapping: 'channels.form.mapping',
    priority: 'channels.form.priority',
    config: 'audit.fields.config',
    system_prompt: 'audit.fields.system_prompt',
    deleted: 'audit.fields.deleted',
  },
  redemption: {
    name: 'redemptions.form.name',
    key: 'audit.fields.code',
    status: 'redemptions.columns.status',
    quota: 'redemptions.form.quota',
    count: 'redemptions.form.count',
    user_id: 'audit.fields.redeemed_by',
  },
  log: { target_timestamp: 'audit.fields.target_timestamp', deleted: 'audit.fields.deleted' },
};

/** The i18n key of a field's label in an entry about `targetType`; undefined when the console has none. */
export function fieldLabelKey(targetType: string, field: string): string | undefined {
  if (targetType === 'option') return `settings.options.${field}.label`;
  return FIELD_LABELS[targetType]?.[field];
}

/** Every label key the audit page may use, for the test that each exists in both languages. @internal */
export const ALL_FIELD_LABEL_KEYS = Object.values(FIELD_LABELS).flatMap((labels) => Object.values(labels));

type Translate = (key: string) => string;
type Exists = (key: string) => boolean;

/** A field as the console labels it, or its own name when it has no label. */
export function fieldLabel(targetType: string, field: string, t: Translate, exists: Exists): string {
  const key = fieldLabelKey(targetType, field);
  return key && exists(key) ? t(key) : field;
}

/** How an entry names its target, in the console's words: `user #3 carol`, `setting Chat page link`, or nothing. */
export function targetText(
  entry: Pick<AuditEntry, 'target_type' | 'target_id' | 'target_name'>,
  t: Translate,
  exists: Exists,
): string {
  if (!entry.target_type) return '';
  const typeKey = `audit.targets.${entry.target_type}`;
  const type = exists(typeKey) ? t(typeKey) : entry.target_type;
  if (entry.target_type === 'option' && entry.target_name) {
    return `${type} ${fieldLabel('option', entry.target_name, t, exists)}`;
  }
  const id = entry.target_id && entry.target_id !== entry.target_name ? ` #${entry.target_id}` : '';
  const name = entry.target_name ? ` ${entry.target_name}` : '';
  return `${type}${id}${name}`;
}
