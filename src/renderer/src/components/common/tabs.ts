export interface Tab {
  readonly id: string
  readonly label: string
}
