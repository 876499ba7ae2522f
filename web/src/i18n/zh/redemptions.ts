import type { enRedemptions } from '../en/redemptions';
import type { Messages } from '../messages';

/** 兑换码（管理员）：列表与表单。 */
export const zhRedemptions: Messages<typeof enRedemptions> = {
  redemptions: {
    title: '管理兑换码',
    search: '搜索兑换码的 ID 和名称 ...',
    add: '添加新的兑换码',
    empty: '暂无兑换码',
    emptyText: '创建兑换码，用户兑换后即可获得额度。',
    noMatch: '没有匹配的兑换码',
    noMatchText: '可按兑换码 ID 或名称开头搜索。',
    noName: '无',
    notRedeemed: '尚未兑换',
    copied: '已复制到剪贴板！',
    copyFailed: '无法复制到剪贴板，请手动复制，已将兑换码填入搜索框。',
    columns: {
      id: 'ID',
      name: '名称',
      status: '状态',
      quota: '额度',
      created: '创建时间',
      redeemed: '兑换时间',
      actions: '操作',
    },
    statuses: { unused: '未使用', disabled: '已禁用', used: '已使用', unknown: '未知状态' },
    actions: {
      copy: '复制',
      delete: '删除',
      confirmDelete: '确认删除',
      enable: '启用',
      disable: '禁用',
      edit: '编辑',
    },
    form: {
      createTitle: '创建新的兑换码',
      editTitle: '更新兑换码信息',
      name: '名称',
      namePlaceholder: '请输入名称',
      nameHint: '生成的兑换码会下载为“名称.txt”，每行一个。',
      usedNote: '该兑换码已被使用，不能再修改。',
      quota: '额度',
      quotaPlaceholder: '请输入单个兑换码中包含的额度',
      quotaEquivalent: '等价金额：{{amount}}',
      count: '生成数量',
      countPlaceholder: '请输入生成数量',
      countHint: '每次可生成 1 到 {{max}} 个。',
      errors: {
        name: { required: '请输入兑换码名称。', tooLong: '名称最多 {{max}} 个字符。' },
        quota: { invalid: '请输入不小于 0 的整数。', tooSmall: '请输入不小于 0 的整数。' },
        count: { invalid: '请输入整数。', tooBig: '请输入 1 到 {{max}} 之间的整数。' },
      },
      created: '兑换码创建成功！',
      updated: '兑换码更新成功！',
    },
  },
};
