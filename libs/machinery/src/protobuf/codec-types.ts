export type ProtoFieldFlags = string;
export type ProtoFieldRow = readonly [name: string, number: number, type: string, flags?: ProtoFieldFlags];
export type ProtoMessages = Record<string, readonly ProtoFieldRow[]>;
