/**
 * `qr.*`: review bundles and witnesses carried by animated QR codes. A scan is the frames one camera session
 * reads, kept here between calls under the id the window gave it; a few are kept, the oldest dropped first.
 */
import { checkQrPayload, encodeQrSequence, QrReceiver } from '../qr-transfer'
import type { HandlersOf } from './handlers'

type QrCall = 'qr.encode' | 'qr.scan'

/** Scans kept at once: a window scans one sequence at a time, so a handful covers reloads and a second window. */
const MAX_SCANS = 4

export function qrCalls(): HandlersOf<QrCall> {
  const scans = new Map<string, QrReceiver>()

  function scan(id: string): QrReceiver {
    let receiver = scans.get(id)
    if (receiver === undefined) {
      receiver = new QrReceiver()
      scans.set(id, receiver)
      if (scans.size > MAX_SCANS) scans.delete(scans.keys().next().value!)
    }
    return receiver
  }

  return {
    'qr.encode': async (payload) => encodeQrSequence(checkQrPayload(payload)),

    'qr.scan': async ({ scanId, part }) => {
      const receiver = scan(scanId)
      const progress = receiver.receive(part)
      const payload = receiver.result()
      if (payload !== undefined) scans.delete(scanId)
      return { ...progress, ...(payload === undefined ? {} : { payload }) }
    }
  }
}
