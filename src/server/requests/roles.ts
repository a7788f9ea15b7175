/**
 * A create request's `roles` → the engine's `RolesConfig` (Runtime's `FromDTO RoleTokensConfig`): failures
 * are "Invalid roles value". Role name lengths, quantities and networks are the builder's checks.
 */
import type { z } from 'zod'
import { EngineError } from '../../engine/errors'
import { roleTokenMetadatum, type RoleTokenFile, type RoleTokenMetadata } from '../../engine/build'
import type { MintRole, RolesConfig, RoleTokenDestination } from '../../engine/build'
import { parseAddress, type NetworkId } from './addresses'
import { invalid, relabel } from './errors'
import { childPath } from './problems'
import type { roleTokenConfig, rolesConfig, tokenMetadata, tokenMetadataFile } from './schemas'

const ROLES = 'Invalid roles value'
/** type "/" subtype [";" parameters], as `parseAccept` wants a media type. */
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(?:\s*;.*)?$/

type RolesDto = z.output<typeof rolesConfig>
type RoleTokenConfigDto = z.output<typeof roleTokenConfig>
type TokenMetadataDto = z.output<typeof tokenMetadata>
type TokenMetadataFileDto = z.output<typeof tokenMetadataFile>

function destination(text: string, where: string, networkId: NetworkId | undefined): RoleTokenDestination {
  if (text === 'OpenRole') return { openRole: true }
  return { address: parseAddress(text, networkId, (reason) => invalid(ROLES, where, reason)) }
}

function mediaType(text: string, where: string): string {
  if (!MEDIA_TYPE.test(text)) throw invalid(ROLES, where, `${JSON.stringify(text)} is not a media type`)
  return text
}

function file(dto: TokenMetadataFileDto, where: string): RoleTokenFile {
  const { name, src, mediaType: type, ...extra } = dto
  return {
    name,
    src,
    mediaType: mediaType(type, childPath(where, 'mediaType')),
    ...(Object.keys(extra).length > 0 ? { extra } : {})
  }
}

function roleTokenMetadata(dto: TokenMetadataDto, where: string): RoleTokenMetadata {
  const { name, image, mediaType: type, description, files, ...extra } = dto
  const metadata: RoleTokenMetadata = {
    name,
    image,
    ...(type === undefined ? {} : { mediaType: mediaType(type, childPath(where, 'mediaType')) }),
    ...(description === undefined ? {} : { description }),
    ...(files === undefined ? {} : { files: files.map((f, i) => file(f, childPath(childPath(where, 'files'), i))) }),
    ...(Object.keys(extra).length > 0 ? { extra } : {})
  }
  try {
    // The builder's own encoding is the check: text limits and the no-schema mapping of extra keys.
    roleTokenMetadatum(metadata, where)
  } catch (e) {
    if (e instanceof EngineError) throw relabel(ROLES, e)
    throw e
  }
  return metadata
}

function mintRole(name: string, config: RoleTokenConfigDto, where: string, networkId?: NetworkId): MintRole {
  if (typeof config === 'string') {
    return { name, recipients: [{ destination: destination(config, where, networkId), quantity: 1n }] }
  }
  // Runtime's precedence when several keys are given: recipients, then address, then script.
  let recipients: MintRole['recipients']
  if (config.recipients !== undefined) {
    const at = childPath(where, 'recipients')
    recipients = Object.entries(config.recipients).map(([to, quantity]) => ({
      destination: destination(to, childPath(at, to), networkId),
      quantity
    }))
    if (recipients.length === 0) throw invalid(ROLES, at, 'no recipients: name at least one address or "OpenRole"')
  } else if (config.address !== undefined) {
    const at = childPath(where, 'address')
    const address = parseAddress(config.address, networkId, (reason) => invalid(ROLES, at, reason))
    recipients = [{ destination: { address }, quantity: 1n }]
  } else {
    recipients = [{ destination: { openRole: true }, quantity: 1n }]
  }
  const metadata =
    config.metadata === undefined ? undefined : roleTokenMetadata(config.metadata, childPath(where, 'metadata'))
  return { name, recipients, ...(metadata === undefined ? {} : { metadata }) }
}

export function toRolesConfig(dto: RolesDto, where: string, networkId?: NetworkId): RolesConfig {
  switch (dto.form) {
    case 'policy':
      return { type: 'UsePolicy', policyId: dto.policyId.toLowerCase() }
    case 'open':
      return { type: 'UsePolicy', policyId: dto.policyId.toLowerCase(), openRoles: dto.openRoleNames }
    case 'mint': {
      const roles = Object.entries(dto.roles).map(([name, config]) =>
        mintRole(name, config, childPath(where, name), networkId)
      )
      if (roles.length === 0) throw invalid(ROLES, where, 'no roles to mint: the object is empty')
      return { type: 'Mint', roles }
    }
  }
}
