/**
 * A camera for Chromium's fake capture device (`--use-file-for-fake-video-capture`): QR codes as the frames of a
 * YUV4MPEG2 file, 640×480 at 10 frames/s, which Chromium plays in a loop to the page's getUserMedia.
 */
import { writeFileSync } from 'node:fs'
import QRCode from 'qrcode'

const WIDTH = 640
const HEIGHT = 480
/** The frame rate the QR player shows its frames at. */
const FPS = 10
/** Light modules around a code that has none of its own, as the QR standard asks. */
const QUIET_ZONE = 4

/** A QR code as square modules, dark true, its quiet zone included. */
export interface ModuleMatrix {
  readonly size: number
  readonly dark: (row: number, col: number) => boolean
}

/**
 * The modules a page drew: an SVG viewBox of `view` modules and a path of unit squares (`M{col} {row}h1v1h-1z`
 * each), as `qr-svg.ts` draws them.
 */
export function drawnModules(view: number, path: string): ModuleMatrix {
  const dark = new Set<number>()
  for (const m of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) dark.add(Number(m[2]) * view + Number(m[1]))
  if (dark.size === 0) throw new Error(`no QR modules in the path: ${path.slice(0, 80)}`)
  return { size: view, dark: (row, col) => dark.has(row * view + col) }
}

/** `text` as a QR code drawn here (for frames the page never showed). */
export function qrModules(text: string): ModuleMatrix {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'L' }).modules
  const view = size + 2 * QUIET_ZONE
  const inside = (i: number): boolean => i >= QUIET_ZONE && i < QUIET_ZONE + size
  return {
    size: view,
    dark: (row, col) => inside(row) && inside(col) && data[(row - QUIET_ZONE) * size + (col - QUIET_ZONE)] === 1
  }
}

/** The codes as a Y4M video, each for `holds[i]` frames (1 unless told), centred, as large as fits, black on white. */
export function writeQrVideo(file: string, codes: readonly ModuleMatrix[], holds: readonly number[] = []): void {
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`, 'ascii')
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128)
  const frames: Buffer[] = [header]
  codes.forEach((code, i) => {
    const scale = Math.floor(Math.min(WIDTH, HEIGHT) / code.size)
    if (scale < 2) throw new Error(`a QR code of ${code.size} modules does not fit ${WIDTH}×${HEIGHT} readably`)
    const left = Math.floor((WIDTH - code.size * scale) / 2)
    const top = Math.floor((HEIGHT - code.size * scale) / 2)
    const luma = Buffer.alloc(WIDTH * HEIGHT, 255)
    for (let y = 0; y < code.size * scale; y++) {
      for (let x = 0; x < code.size * scale; x++) {
        if (code.dark(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * WIDTH + left + x] = 0
      }
    }
    const frame = Buffer.concat([Buffer.from('FRAME\n', 'ascii'), luma, chroma])
    for (let n = 0; n < (holds[i] ?? 1); n++) frames.push(frame)
  })
  writeFileSync(file, Buffer.concat(frames))
}
