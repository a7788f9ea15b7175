/** Help through the built CLI: every command and every group says what it is for. */
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli'

/** The command names the overview lists ("keys create", "serve", …). */
function commandNames(): string[] {
  const overview = runCli(['--help']).stdout
  return [...overview.matchAll(/^ {2}(\S+(?: \S+)?) {2,}/gm)].map((m) => m[1]!)
}

/** The text between the usage lines and the end: what a reader learns beyond the syntax. */
function description(help: string): string {
  return help.split('\n\n').slice(1).join('\n\n').trim()
}

describe('marlowe-desk help', () => {
  it('gives every command a description under its usage', () => {
    const names = commandNames()
    expect(names.length).toBeGreaterThan(15)
    for (const name of names) {
      const r = runCli([...name.split(' '), '--help'])
      expect(r.code, name).toBe(0)
      expect(r.stdout, name).toMatch(new RegExp(`^Usage: marlowe-desk ${name}`))
      expect(description(r.stdout).length, `${name} --help has no description`).toBeGreaterThan(40)
    }
  })

  it('answers a group without its command with the group’s help and a usage error', () => {
    const groups = [
      ...new Set(
        commandNames()
          .filter((n) => n.includes(' '))
          .map((n) => n.split(' ')[0]!)
      )
    ]
    expect(groups).toEqual(['sandbox', 'contract', 'keys', 'tx', 'validators'])
    for (const group of groups) {
      const bare = runCli([group])
      expect(bare.code, group).toBe(2)
      expect(bare.stderr, group).not.toContain('unknown command')
      expect(bare.stderr, group).toContain(`marlowe-desk ${group}: name a ${group} command (one of those below)`)
      expect(bare.stderr, group).toContain(`Usage: marlowe-desk ${group} <command> [options]`)
      const asked = runCli([group, '--help'])
      expect(asked.code, group).toBe(0)
      expect(description(asked.stdout).length, group).toBeGreaterThan(40)
      for (const name of commandNames().filter((n) => n.startsWith(`${group} `))) {
        expect(asked.stdout, group).toContain(`  ${name}  `)
      }
    }
    const keys = runCli(['keys']).stderr
    for (const sub of ['create', 'restore', 'list', 'addresses', 'export-public', 'import-skey', 'watch']) {
      expect(keys).toContain(`keys ${sub}`)
    }
  })

  it('still names a mistyped command, with the group’s commands to choose from', () => {
    const r = runCli(['keys', 'lsit'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown command "keys lsit"')
    expect(r.stderr).toContain('keys list')
    expect(runCli(['nonsense']).stderr).toContain('unknown command "nonsense"')
  })
})
