import type { Options } from '@swc/core';

export declare const swcOptions: Options;
