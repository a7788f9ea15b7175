/**
 * `qr.*`: review bundles and witnesses carried by animated QR codes, and Keystone signatures read the same way.
 * A scan is the frames one camera session reads, kept here between calls under the id the window gave it; a few
 * are kept, the oldest dropped first.
 */
import { KEYSTONE_SIGNATURE_READING } from '../hardware'
import { checkQrPayload, encodeQrSequence, QrReceiver, UrReceiver, type UrProgress } from '../qr-transfer'
import type { HandlersOf } from './handlers'

type QrCall = 'qr.encode' | 'qr.scan' | 'qr.scanKeystone'

/** Scans kept at once: a window scans one sequence at a time, so a handful covers reloads and a second window. */
const MAX_SCANS = 4

/** The scans of one kind: each frame goes to its scan; the payload comes back once whole, and the scan is done. */
function scans<K extends string, P>(
  make: () => UrReceiver<K, P>
): (scanId: string, part: string) => UrProgress<K> & { payload?: P } {
  const open = new Map<string, UrReceiver<K, P>>()
  return (scanId, part) => {
    let receiver = open.get(scanId)
    if (receiver === undefined) {
      receiver = make()
      open.set(scanId, receiver)
      if (open.size > MAX_SCANS) open.delete(open.keys().next().value!)
    }
    const progress = receiver.receive(part)
    const payload = receiver.result()
    if (payload !== undefined) open.delete(scanId)
    return { ...progress, ...(payload === undefined ? {} : { payload }) }
  }
}

export function qrCalls(): HandlersOf<QrCall> {
  const deskScan = scans(() => new QrReceiver())
  const keystoneScan = scans(() => new UrReceiver(KEYSTONE_SIGNATURE_READING))

  return {
    'qr.encode': async (payload) => encodeQrSequence(checkQrPayload(payload)),

    'qr.scan': async ({ scanId, part }) => deskScan(scanId, part),

    'qr.scanKeystone': async ({ scanId, part }) => {
      const { received, expected, percent, payload } = keystoneScan(scanId, part)
      return { received, expected, percent, ...(payload === undefined ? {} : { signature: payload }) }
    }
  }
}
