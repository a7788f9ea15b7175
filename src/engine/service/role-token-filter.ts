/**
 * Runtime's `RoleTokenFilter` (runtime-api.md §3.13): which role tokens a burn takes, decided per (contract,
 * token) — a contract of the token's policy, and the token.
 */
export type RoleTokenFilter =
  | { readonly type: 'any' }
  | { readonly type: 'none' }
  | { readonly type: 'and'; readonly left: RoleTokenFilter; readonly right: RoleTokenFilter }
  | { readonly type: 'or'; readonly left: RoleTokenFilter; readonly right: RoleTokenFilter }
  | { readonly type: 'not'; readonly filter: RoleTokenFilter }
  /** Contract ids, `txid#ix` in lowercase. */
  | { readonly type: 'contracts'; readonly contractIds: ReadonlySet<string> }
  /** Policy ids, lowercase hex. */
  | { readonly type: 'policies'; readonly policyIds: ReadonlySet<string> }
  /** `policyId.assetNameHex`, lowercase. */
  | { readonly type: 'tokens'; readonly tokens: ReadonlySet<string> }

export interface FilteredToken {
  readonly contractId: string
  readonly policyId: string
  /** hex */
  readonly assetName: string
}

export const tokenKey = (policyId: string, assetNameHex: string): string => `${policyId}.${assetNameHex}`

export function matchesFilter(filter: RoleTokenFilter, token: FilteredToken): boolean {
  switch (filter.type) {
    case 'any':
      return true
    case 'none':
      return false
    case 'and':
      return matchesFilter(filter.left, token) && matchesFilter(filter.right, token)
    case 'or':
      return matchesFilter(filter.left, token) || matchesFilter(filter.right, token)
    case 'not':
      return !matchesFilter(filter.filter, token)
    case 'contracts':
      return filter.contractIds.has(token.contractId)
    case 'policies':
      return filter.policyIds.has(token.policyId)
    case 'tokens':
      return filter.tokens.has(tokenKey(token.policyId, token.assetName))
  }
}
