// defaultSeed is the seed CI runs with; HARDENING_SEED picks another.
export const defaultSeed = 0x5eed0011;
