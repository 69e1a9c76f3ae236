import type { DownloadedFile } from '../api/client';

/** Hands a downloaded file to the browser to save under its name (a temporary link, clicked). */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Chromium reads the blob after the click returns: free it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
