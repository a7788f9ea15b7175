/** A QR code as one SVG path of its dark modules (no canvas, nothing inline for the CSP). */
import QRCode from 'qrcode'

/** Light modules around the code, as the QR standard asks. */
const QUIET_ZONE = 4

export interface QrSvg {
  /** The viewBox's side, in modules, quiet zone included. */
  readonly view: number
  readonly path: string
}

export function qrSvg(text: string, errorCorrectionLevel: 'L' | 'M'): QrSvg {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel }).modules
  let path = ''
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (data[row * size + col]) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`
    }
  }
  return { view: size + 2 * QUIET_ZONE, path }
}
