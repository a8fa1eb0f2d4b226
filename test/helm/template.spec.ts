// The Go-template subset interpreter the chart test renders helm/plinth with: each behaviour as
// text/template, Sprig and Helm define it.
import { templateFunctions, toYaml } from './render/functions';
import { mergeValues } from './render/chart';
import { Templates } from './render/template';

function render(source: string, data: unknown, defines = ''): string {
  const templates = new Templates(templateFunctions);
  if (defines) templates.parse('_helpers.tpl', defines);
  templates.parse('t.yaml', source);
  return templates.render('t.yaml', data);
}

describe('Go template subset', () => {
  it('trims whitespace around {{- and -}} and drops comments', () => {
    expect(render('a  \n  {{- .x -}}  \n b{{/* note */}}', { x: 1 })).toBe('a1b');
    expect(render('a {{ .x }} b', { x: 'v' })).toBe('a v b');
  });

  it('evaluates if, else if and else with text/template truth', () => {
    const t = '{{ if .a }}A{{ else if .b }}B{{ else }}C{{ end }}';
    expect(render(t, { a: 'yes' })).toBe('A');
    expect(render(t, { a: '', b: [1] })).toBe('B');
    expect(render(t, { a: 0, b: {} })).toBe('C');
    expect(render('{{ if not .a }}none{{ end }}{{ if and .a .b }}both{{ end }}{{ if or .a .b }}some{{ end }}', { a: false, b: true })).toBe('nonesome');
    expect(render('{{ if eq .kind "x" "y" }}match{{ end }}{{ if ne .kind "y" }}!{{ end }}', { kind: 'y' })).toBe('match');
  });

  it('has Sprig\'s sha256sum, until, join, int and gt', () => {
    expect(render('{{ .s | sha256sum }}', { s: 'abc' })).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(render('{{ range $i := until (int .n) }}{{ if $i }},{{ end }}m{{ $i }}{{ end }}', { n: 3 })).toBe('m0,m1,m2');
    expect(render('{{ join "," .l }}', { l: ['CN=a', 'O=b'] })).toBe('CN=a,O=b');
    expect(render('{{ if gt (int .n) 1 }}many{{ else }}one{{ end }}', { n: 1 })).toBe('one');
    expect(render('{{ if gt (int .n) 1 }}many{{ else }}one{{ end }}', { n: 3 })).toBe('many');
  });

  it('ranges over lists and maps (in key order) with variables, and else when empty', () => {
    expect(render('{{ range .l }}[{{ . }}]{{ end }}', { l: ['a', 'b'] })).toBe('[a][b]');
    expect(render('{{ range $i, $v := .l }}{{ $i }}={{ $v }};{{ end }}', { l: ['a', 'b'] })).toBe('0=a;1=b;');
    expect(render('{{ range $k, $v := .m }}{{ $k }}:{{ $v }} {{ end }}', { m: { b: 2, a: 1 } })).toBe('a:1 b:2 ');
    expect(render('{{ range .l }}x{{ else }}empty{{ end }}', { l: [] })).toBe('empty');
    expect(render('{{ range .l }}{{ $.name }}{{ end }}', { l: [1, 2], name: 'n' })).toBe('nn');
  });

  it('rebinds dot with with, and declares variables', () => {
    expect(render('{{ with .a }}{{ .b }}{{ else }}none{{ end }}', { a: { b: 'in' } })).toBe('in');
    expect(render('{{ with .a }}{{ .b }}{{ else }}none{{ end }}', { a: {} })).toBe('none');
    expect(render('{{ $x := .a }}{{ $x }}-{{ $x }}', { a: 'v' })).toBe('v-v');
  });

  it('includes defined templates with a context, piped through functions', () => {
    const helpers = '{{- define "labels" -}}\nname: {{ .name }}\nteam: {{ .team | quote }}\n{{- end }}';
    expect(render('labels:\n  {{- include "labels" . | nindent 2 }}\n', { name: 'a', team: 't' }, helpers)).toBe('labels:\n  name: a\n  team: "t"\n');
    expect(render('{{ printf "%s-%v" (include "n" .) .port }}', { port: 80 }, '{{ define "n" }}svc{{ end }}')).toBe('svc-80');
  });

  it('has toYaml, indent, default, quote, printf and b64enc as Helm does', () => {
    expect(toYaml({ b: [1, 'x'], a: { d: true, c: null } })).toBe('a:\n  c: null\n  d: true\nb:\n- 1\n- x');
    expect(render('{{ toYaml .r | indent 2 }}', { r: { cpu: '1' } })).toBe('  cpu: "1"');
    expect(render('{{ default "d" .x }}|{{ default "d" .y }}|{{ .missing }}', { x: '', y: 'y' })).toBe('d|y|');
    expect(render('{{ quote .a .b }}', { a: 'say "hi"', b: 2 })).toBe('"say \\"hi\\"" "2"');
    expect(render('{{ printf "%s:%d%%" "a" 3 }}', {})).toBe('a:3%');
    expect(render('{{ .s | b64enc }}', { s: 'plinth' })).toBe('cGxpbnRo');
  });

  it('refuses what is outside the subset, and nil field chains, by name', () => {
    expect(() => render('{{ template "x" . }}', {})).toThrow('{{template}} is outside the supported subset');
    expect(() => render('{{ upper .a }}', { a: 'x' })).toThrow('function "upper" not defined');
    expect(() => render('{{ .a.b.c }}', { a: {} })).toThrow('nil pointer evaluating .a.b.c');
    expect(() => render('{{ if .a }}x', {})).toThrow('unclosed if');
    expect(() => render('{{ $y }}', {})).toThrow('undefined variable "$y"');
  });

  it('merges values as helm -f does: maps key by key, null deletes', () => {
    expect(mergeValues({ a: { b: 1, c: 2 }, l: [1, 2], d: 'x' }, { a: { c: 3 }, l: [9], d: null })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
  });
});
