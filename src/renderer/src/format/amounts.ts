/**
 * Amounts are bigints from end to end: formatting and parsing work on decimal digits, never through a
 * JavaScript number, so quantities above 2^53 show and travel exactly.
 */
export const LOVELACE_PER_ADA = 1_000_000n
const ADA_DECIMALS = 6
const MINUS = '−'

export class AmountError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AmountError'
  }
}

/** 1234567 → "1,234,567"; negative numbers get a minus sign. */
export function formatQuantity(n: bigint, options: { signed?: boolean } = {}): string {
  const digits = (n < 0n ? -n : n).toString().replace(/\B(?=(\d{3})+$)/g, ',')
  return sign(n, options.signed === true) + digits
}

/** 2500000n → "2.5 ada": the fraction keeps only the digits it needs. */
export function formatAda(lovelace: bigint, options: { signed?: boolean } = {}): string {
  const abs = lovelace < 0n ? -lovelace : lovelace
  const whole = formatQuantity(abs / LOVELACE_PER_ADA)
  const fraction = (abs % LOVELACE_PER_ADA).toString().padStart(ADA_DECIMALS, '0').replace(/0+$/, '')
  return `${sign(lovelace, options.signed === true)}${whole}${fraction === '' ? '' : `.${fraction}`} ada`
}

function sign(n: bigint, signed: boolean): string {
  if (n < 0n) return MINUS
  return signed && n > 0n ? '+' : ''
}

/** "12.5" (ada) → 12500000n lovelace; at most six decimals, no sign, no exponent. */
export function parseAda(text: string): bigint {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/[,_\s]/g, ''))
  if (match === null) throw new AmountError('Enter an amount of ada, such as 12.5.')
  const fraction = match[2] ?? ''
  if (fraction.length > ADA_DECIMALS) throw new AmountError('Ada has at most six decimals.')
  return BigInt(match[1] ?? '0') * LOVELACE_PER_ADA + BigInt(fraction.padEnd(ADA_DECIMALS, '0'))
}

/** A whole number, possibly negative, of any size. */
export function parseInteger(text: string): bigint {
  const cleaned = text
    .trim()
    .replace(/[,_\s]/g, '')
    .replace(MINUS, '-')
  if (!/^-?\d+$/.test(cleaned)) throw new AmountError('Enter a whole number.')
  return BigInt(cleaned)
}
