/** Files in and out of the page: the browser's own download and file reading, so both transports work alike. */
import type { ExportedFile } from '../../../api/contract'

/** Saves the text as a download named `fileName` (the desktop window shows its save dialog). */
export function downloadFile(file: ExportedFile, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }))
  const link = doc.createElement('a')
  link.href = url
  link.download = file.fileName
  link.hidden = true
  doc.body.append(link)
  link.click()
  link.remove()
  // The download has taken its copy once click() returns; the object URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** Largest file the import controls read: transactions and bundles are kilobytes, contracts a few megabytes. */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024

export async function readTextFile(file: File): Promise<string> {
  if (file.size > MAX_IMPORT_BYTES) {
    throw new Error(`${file.name} is ${file.size} bytes; files over ${MAX_IMPORT_BYTES} bytes are not read.`)
  }
  return file.text()
}
