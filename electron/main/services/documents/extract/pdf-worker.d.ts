// pdf.js ships no types for its worker module; HubDesk only hands it to pdf.js (its "fake worker").
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
