// Scheduling-related validation of pkg/apis/core/validation (v1.28): tolerations, affinity,
// node selectors, topology spread constraints, DNS config and host aliases.
import { field, FieldError, FieldPath, GoLiteral, goQuote, LabelSelector, validateLabelSelector, validation } from '@plinth/machinery';
import { isNotPositiveErrorMsg, isObj, isSet, nameIsDNSLabel, nameIsDNSSubdomain, num, Obj, objects, parseIPSloppy, str, strings, validateDNS1123Subdomain, validateQualifiedName } from './validation-helpers';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTaintEffect(effect: string, allowEmpty: boolean, path: FieldPath): FieldError[] {
  if (!allowEmpty && effect.length === 0) return [field.required(path, '')];
  return field.validateEnum(path, effect, taintEffects);
}

// tolerationLiteral prints a Toleration the way %#v prints core.Toleration.
function tolerationLiteral(t: Obj): GoLiteral {
  const seconds = typeof t.tolerationSeconds === 'number' ? `(*int64)(${t.tolerationSeconds})` : '(*int64)(nil)';
  return new GoLiteral(
    `core.Toleration{Key:${goQuote(str(t.key))}, Operator:${goQuote(str(t.operator))}, Value:${goQuote(str(t.value))}, Effect:${goQuote(str(t.effect))}, TolerationSeconds:${seconds}}`,
  );
}

// validateTolerations is ValidateTolerations.
export function validateTolerations(tolerations: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(tolerations).forEach((t, i) => {
    const idx = path.index(i);
    const key = str(t.key);
    const operator = str(t.operator);
    const effect = str(t.effect);
    const value = str(t.value);
    if (key.length > 0) errs.push(...validation.validateLabelName(key, idx.child('key')));
    if (key.length === 0 && operator !== 'Exists') {
      errs.push(field.invalid(idx.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t.tolerationSeconds) && effect !== 'NoExecute') {
      errs.push(field.invalid(idx.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = validation.isValidLabelValue(value);
        if (msgs.length > 0) errs.push(field.invalid(idx.child('operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value.length > 0) errs.push(field.invalid(idx.child('operator'), tolerationLiteral(t), "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(field.notSupported(idx.child('operator'), operator, ['Equal', 'Exists']));
    }
    if (effect.length > 0) errs.push(...validateTaintEffect(effect, true, idx.child('effect')));
  });
  return errs;
}

// Node selectors.
export function validateNodeSelectorRequirement(rq: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(field.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(field.forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(field.required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(field.invalid(path.child('operator'), str(rq.operator), 'not a valid selector operator'));
  }
  errs.push(...validation.validateLabelName(str(rq.key), path.child('key')));
  return errs;
}

function validateNodeFieldSelectorRequirement(rq: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(field.required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(field.invalid(path.child('operator'), str(rq.operator), 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') {
    errs.push(field.invalid(path.child('key'), str(rq.key), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((m) => field.invalid(path.child('values').index(i), v, m))));
  }
  return errs;
}

export function validateNodeSelectorTerm(term: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(term.matchExpressions).forEach((rq, j) => errs.push(...validateNodeSelectorRequirement(rq, path.child('matchExpressions').index(j))));
  objects(term.matchFields).forEach((rq, j) => errs.push(...validateNodeFieldSelectorRequirement(rq, path.child('matchFields').index(j))));
  return errs;
}

export function validateNodeSelector(selector: Obj, path: FieldPath): FieldError[] {
  const termPath = path.child('nodeSelectorTerms');
  const terms = objects(selector.nodeSelectorTerms);
  if (terms.length === 0) return [field.required(termPath, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => validateNodeSelectorTerm(term, termPath.index(i)));
}

// Affinity.
export function validateAffinity(affinity: unknown, path: FieldPath): FieldError[] {
  if (!isObj(affinity)) return [];
  const errs: FieldError[] = [];
  const na = affinity.nodeAffinity;
  if (isObj(na)) {
    const p = path.child('nodeAffinity');
    if (isObj(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      errs.push(...validateNodeSelector(na.requiredDuringSchedulingIgnoredDuringExecution, p.child('requiredDuringSchedulingIgnoredDuringExecution')));
    }
    objects(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      const tp = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const weight = num(term.weight);
      if (weight <= 0 || weight > 100) errs.push(field.invalid(tp.child('weight'), weight, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(isObj(term.preference) ? term.preference : {}, tp.child('preference')));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pa = affinity[kind];
    if (!isObj(pa)) continue;
    const p = path.child(kind);
    objects(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      errs.push(...validatePodAffinityTerm(term, p.child('requiredDuringSchedulingIgnoredDuringExecution').index(i)));
    });
    objects(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      const tp = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const weight = num(term.weight);
      if (weight <= 0 || weight > 100) errs.push(field.invalid(tp.child('weight'), weight, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(isObj(term.podAffinityTerm) ? term.podAffinityTerm : {}, tp.child('podAffinityTerm')));
    });
  }
  return errs;
}

function validatePodAffinityTerm(term: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector as LabelSelector | undefined, {}, path.child('labelSelector')));
  errs.push(...validateLabelSelector(term.namespaceSelector as LabelSelector | undefined, {}, path.child('namespaceSelector')));
  for (const name of strings(term.namespaces)) {
    errs.push(...nameIsDNSLabel(name, false).map((m) => field.invalid(path.child('namespace'), name, m)));
  }
  const key = str(term.topologyKey);
  if (key.length === 0) errs.push(field.required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...validation.validateLabelName(key, path.child('topologyKey')));
  return errs;
}

// Topology spread constraints.
export function validateTopologySpreadConstraints(constraints: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = objects(constraints);
  list.forEach((c, i) => {
    const p = path.index(i);
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) errs.push(field.invalid(p.child('maxSkew'), maxSkew, isNotPositiveErrorMsg));
    const key = str(c.topologyKey);
    if (key.length === 0) errs.push(field.required(p.child('topologyKey'), 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (!['DoNotSchedule', 'ScheduleAnyway'].includes(action)) {
      errs.push(field.notSupported(p.child('whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    if (list.slice(i + 1).some((r) => str(r.topologyKey) === key && str(r.whenUnsatisfiable) === action)) {
      errs.push(field.duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${key}, ${action}}`));
    }
    if (isSet(c.minDomains)) {
      const minDomains = num(c.minDomains);
      if (minDomains <= 0) errs.push(field.invalid(p.child('minDomains'), minDomains, isNotPositiveErrorMsg));
      if (action !== 'DoNotSchedule') {
        errs.push(field.invalid(p.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
      }
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[policy]) && !['Honor', 'Ignore'].includes(str(c[policy]))) {
        errs.push(field.notSupported(p.child(policy), c[policy], ['Honor', 'Ignore']));
      }
    }
    errs.push(...validateMatchLabelKeys(strings(c.matchLabelKeys), c.labelSelector, p.child('matchLabelKeys')));
    errs.push(...validateLabelSelector(c.labelSelector as LabelSelector | undefined, {}, p.child('labelSelector')));
  });
  return errs;
}

function validateMatchLabelKeys(keys: string[], selector: unknown, path: FieldPath): FieldError[] {
  if (keys.length === 0) return [];
  const errs: FieldError[] = [];
  const selectorKeys = new Set<string>();
  if (isObj(selector)) {
    for (const k of Object.keys(isObj(selector.matchLabels) ? selector.matchLabels : {})) selectorKeys.add(k);
    for (const e of objects(selector.matchExpressions)) selectorKeys.add(str(e.key));
  } else {
    errs.push(field.forbidden(path, 'must not be specified when labelSelector is not set'));
  }
  keys.forEach((key, i) => {
    errs.push(...validation.validateLabelName(key, path.index(i)));
    if (selectorKeys.has(key)) errs.push(field.invalid(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

// DNS.
const maxDNSNameservers = 3;
const maxDNSSearchPaths = 32;
const maxDNSSearchListChars = 2048;

export function validateDNSPolicy(policy: unknown, path: FieldPath): FieldError[] {
  switch (policy) {
    case 'ClusterFirstWithHostNet':
    case 'ClusterFirst':
    case 'Default':
    case 'None':
      return [];
    case '':
    case undefined:
    case null:
      return [field.required(path, '')];
    default:
      return [field.notSupported(path, policy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'])];
  }
}

export function validatePodDNSConfig(config: unknown, policy: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (policy === 'None') {
    if (!isObj(config)) return [field.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (strings(config.nameservers).length === 0) {
      return [field.required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
    }
  }
  if (!isObj(config)) return errs;
  const nameservers = strings(config.nameservers);
  if (nameservers.length > maxDNSNameservers) {
    errs.push(field.invalid(path.child('nameservers'), nameservers, `must not have more than ${maxDNSNameservers} nameservers`));
  }
  nameservers.forEach((ns, i) => {
    if (!parseIPSloppy(ns)) errs.push(field.invalid(path.child('nameservers').index(i), ns, 'must be valid IP address'));
  });
  const searches = strings(config.searches);
  if (searches.length > maxDNSSearchPaths) {
    errs.push(field.invalid(path.child('searches'), searches, `must not have more than ${maxDNSSearchPaths} search paths`));
  }
  if (searches.join(' ').length > maxDNSSearchListChars) {
    errs.push(field.invalid(path.child('searches'), searches, `must not have more than ${maxDNSSearchListChars} characters (including spaces) in the search list`));
  }
  searches.forEach((search, i) => errs.push(...validateDNS1123Subdomain(search.replace(/\.$/, ''), path.child('searches').index(i))));
  objects(config.options).forEach((option, i) => {
    if (str(option.name).length === 0) errs.push(field.required(path.child('options').index(i), 'Option.Name must not be empty'));
  });
  return errs;
}

export function validateHostAliases(aliases: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const alias of objects(aliases)) {
    if (!parseIPSloppy(str(alias.ip))) errs.push(field.invalid(path.child('ip'), str(alias.ip), 'must be valid IP address'));
    for (const hostname of strings(alias.hostnames)) errs.push(...validateDNS1123Subdomain(hostname, path.child('hostnames')));
  }
  return errs;
}

export function validateReadinessGates(gates: unknown, path: FieldPath): FieldError[] {
  return objects(gates).flatMap((g, i) => validateQualifiedName(str(g.conditionType), path.index(i).child('conditionType')));
}

export function validateSchedulingGates(gates: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(gates).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...validateQualifiedName(name, path.index(i)));
    if (seen.has(name)) errs.push(field.duplicate(path.index(i), name));
    seen.add(name);
  });
  return errs;
}
