/** The unparameterised program's flat bytes as hex: optimised, without the traced alternative. */
export declare function compileRoleTokenPolicy(): string
/** compiled.ts for `hex`, as this script writes it (and as Prettier leaves it). */
export declare function compiledModule(hex: string): string
