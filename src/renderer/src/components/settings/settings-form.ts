/** The Settings form's fields as typed text, and the `DeskSettings` they make (or what is wrong with them). */
import type { DeskSettings, NetworkName, NodeSettings } from '../../../../api/contract'

export type NodeKind = 'ogmios' | 'blockfrost'

export interface SettingsFields {
  network: NetworkName
  nodeKind: NodeKind
  ogmios: string
  kupo: string
  projectId: string
  blockfrostUrl: string
  submitApi: string
  sandboxValidators: string
  autoLockMinutes: string
  apiEnabled: boolean
  apiPort: string
}

export type FieldErrors = Partial<Record<keyof SettingsFields, string>>

export function fieldsOf(settings: DeskSettings): SettingsFields {
  const { node } = settings
  return {
    network: settings.network,
    nodeKind: node.blockfrost === undefined ? 'ogmios' : 'blockfrost',
    ogmios: node.ogmios ?? '',
    kupo: node.kupo ?? '',
    projectId: node.blockfrost?.projectId ?? '',
    blockfrostUrl: node.blockfrost?.url ?? '',
    submitApi: node.submitApi ?? '',
    sandboxValidators: settings.sandboxValidators ?? '',
    autoLockMinutes: String(settings.autoLockMinutes),
    apiEnabled: settings.localApi.enabled,
    apiPort: String(settings.localApi.port)
  }
}

function wholeNumber(text: string, min: number, max: number): number | undefined {
  const value = Number(text.trim())
  return /^\d+$/.test(text.trim()) && value >= min && value <= max ? value : undefined
}

/** The node of the form (nothing on the sandbox), with the empty optional fields left out. */
export function nodeOf(fields: SettingsFields): { node: NodeSettings; errors: FieldErrors } {
  if (fields.network === 'sandbox') return { node: {}, errors: {} }
  const errors: FieldErrors = {}
  const submitApi = fields.submitApi.trim()
  const extra = submitApi === '' ? {} : { submitApi }
  if (fields.nodeKind === 'ogmios') {
    const ogmios = fields.ogmios.trim()
    if (!/^wss?:\/\/\S+$/.test(ogmios)) errors.ogmios = 'Enter Ogmios’ address, like ws://127.0.0.1:1337.'
    const kupo = fields.kupo.trim()
    if (kupo !== '' && !/^https?:\/\/\S+$/.test(kupo)) errors.kupo = 'Enter Kupo’s address, like http://127.0.0.1:1442.'
    return { node: { ogmios, ...(kupo === '' ? {} : { kupo }), ...extra }, errors }
  }
  const projectId = fields.projectId.trim()
  const url = fields.blockfrostUrl.trim()
  if (!/^[A-Za-z0-9]{1,64}$/.test(projectId))
    errors.projectId = 'Enter your Blockfrost project id (letters and digits).'
  return { node: { blockfrost: { projectId, ...(url === '' ? {} : { url }) }, ...extra }, errors }
}

export function settingsOf(fields: SettingsFields): { settings?: DeskSettings; errors: FieldErrors } {
  const { node, errors } = nodeOf(fields)
  const minutes = wholeNumber(fields.autoLockMinutes, 1, 1440)
  if (minutes === undefined) errors.autoLockMinutes = 'Enter a whole number of minutes from 1 to 1440.'
  const port = wholeNumber(fields.apiPort, 1024, 65535)
  if (port === undefined) errors.apiPort = 'Enter a port from 1024 to 65535.'
  const validators = fields.sandboxValidators.trim()
  // The engine checks the folder itself; here only that it is a whole path (POSIX, or a Windows drive or share).
  if (validators !== '' && !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(validators))
    errors.sandboxValidators = 'Enter the folder’s whole path, like /home/me/validators.'
  if (minutes === undefined || port === undefined || Object.keys(errors).length > 0) return { errors }
  return {
    settings: {
      network: fields.network,
      node,
      autoLockMinutes: minutes,
      localApi: { enabled: fields.apiEnabled, port },
      ...(validators === '' ? {} : { sandboxValidators: validators })
    },
    errors
  }
}
