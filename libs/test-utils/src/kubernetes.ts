/**
 * The Kubernetes manifests under deploy/k8s as the tests read them: an overlay rendered by
 * `kubectl kustomize`; each object checked against the Kubernetes (and cert-manager) OpenAPI
 * schemas of kubernetes-models; the command line and environment the kubelet gives a container;
 * and which pod may open a connection to which port under the NetworkPolicies.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { BlockList, isIPv4 } from 'node:net';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { workspaceRoot } from './fixtures';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

export const KUBECTL_MISSING =
  'kubectl is not installed: the Kubernetes manifests are rendered with `kubectl kustomize`. Install kubectl 1.27 or newer ' +
  '(https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/: `curl -LO https://dl.k8s.io/release/v1.32.4/bin/linux/amd64/kubectl ' +
  '&& sudo install kubectl /usr/local/bin/`) and run the tests again';

/** The objects `kubectl kustomize` renders from deploy/k8s/<folder> (an overlay such as `overlays/dev`, or `base`). */
export function renderManifests(folder: string): KubeObject[] {
  const result = spawnSync('kubectl', ['kustomize', path.join(workspaceRoot(), 'deploy/k8s', folder)], { encoding: 'utf8' });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new Error(KUBECTL_MISSING);
  if (result.status !== 0) throw new Error(`kubectl kustomize deploy/k8s/${folder} failed: ${result.stderr || result.error?.message}`);
  return parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length > 0) throw new Error(`kubectl kustomize deploy/k8s/${folder} printed bad YAML: ${document.errors[0]!.message}`);
    return document.toJS() as KubeObject;
  });
}

/** Why `object` does not meet its kind's OpenAPI schema, or undefined when it does. */
export async function schemaViolation(object: KubeObject): Promise<string | undefined> {
  // kubernetes-models publishes one module per API group and version (core: `v1`); cert-manager's in its own package.
  const models = object.apiVersion.startsWith('cert-manager.io/')
    ? await import(/* @vite-ignore */ `@kubernetes-models/cert-manager/${object.apiVersion}`)
    : await import(/* @vite-ignore */ `kubernetes-models/${object.apiVersion}`);
  const Model = (models as Record<string, new (data: KubeObject) => { validate(): void }>)[object.kind];
  if (Model === undefined) return `no schema for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

/** A Deployment or StatefulSet: its name, its pods' labels and pod spec. */
export interface Workload {
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  object: KubeObject;
  labels: Record<string, string>;
  pod: any;
}

export function workloadsOf(objects: readonly KubeObject[]): Workload[] {
  return objects
    .filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet')
    .map((object) => ({
      kind: object.kind as Workload['kind'],
      name: object.metadata.name,
      object,
      labels: object.spec.template.metadata?.labels ?? {},
      pod: object.spec.template.spec,
    }));
}

export function objectNamed(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the manifests`);
  return found;
}

/**
 * What the kubelet starts a container with: its environment (envFrom ConfigMaps, then env) and its
 * arguments with `$(VAR)` replaced by the variable's value (`$$` stands for `$`; an unknown
 * variable stays as written), as Kubernetes expands them.
 */
export function containerLaunch(objects: readonly KubeObject[], workload: Workload, containerName = workload.pod.containers[0].name): { args: string[]; env: Record<string, string> } {
  const container = workload.pod.containers.find((each: any) => each.name === containerName);
  if (!container) throw new Error(`${workload.name} has no container ${containerName}`);
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) throw new Error(`${workload.name}: envFrom other than a ConfigMap (${JSON.stringify(source)})`);
    Object.assign(env, objectNamed(objects, 'ConfigMap', source.configMapRef.name).data);
  }
  for (const variable of container.env ?? []) {
    const fromConfigMap = variable.valueFrom?.configMapKeyRef;
    if (variable.valueFrom !== undefined && !fromConfigMap) throw new Error(`${workload.name}: ${variable.name} comes from ${JSON.stringify(variable.valueFrom)}`);
    env[variable.name] = fromConfigMap ? objectNamed(objects, 'ConfigMap', fromConfigMap.name).data![fromConfigMap.key]! : expand(String(variable.value ?? ''), env);
  }
  return { args: (container.args ?? []).map((arg: string) => expand(arg, env)), env };
}

export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) => (name === undefined ? '$' : (env[name] ?? whole)));
}

/**
 * A pod's volumes as directories under `root`, as the kubelet mounts them: a ConfigMap's or a
 * Secret's keys as files (the Secrets' values from `secrets`, by name and key, since the manifests
 * hold none; without `secrets`, Secret volumes stay empty), everything else an empty directory.
 * Answers each mount path of the container (the first, or `containerName`) with its directory.
 */
export function mountVolumes(
  objects: readonly KubeObject[],
  workload: Workload,
  root: string,
  secrets?: Record<string, Record<string, string>>,
  containerName: string = workload.pod.containers[0].name,
): Map<string, string> {
  const directories = new Map<string, string>();
  const claims = (workload.object.spec.volumeClaimTemplates ?? []).map((claim: KubeObject) => ({ name: claim.metadata.name }));
  for (const volume of [...(workload.pod.volumes ?? []), ...claims]) {
    const directory = path.join(root, workload.name, volume.name);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    let files: Record<string, string> = {};
    if (volume.configMap) files = objectNamed(objects, 'ConfigMap', volume.configMap.name).data ?? {};
    if (volume.secret && secrets !== undefined) {
      const secret = secrets[volume.secret.secretName];
      if (secret === undefined) throw new Error(`${workload.name} mounts the Secret ${volume.secret.secretName}, which the test did not create`);
      files = secret;
    }
    const mode = volume.secret ? secretFileMode(workload, volume.secret) : (volume.configMap?.defaultMode ?? 0o644);
    for (const [key, text] of Object.entries(files)) {
      writeFileSync(path.join(directory, key), text, { mode });
      chmodSync(path.join(directory, key), mode);
    }
    directories.set(volume.name, directory);
  }
  const container = workload.pod.containers.find((each: any) => each.name === containerName);
  if (!container) throw new Error(`${workload.name} has no container ${containerName}`);
  const mounts = new Map<string, string>();
  for (const mount of container.volumeMounts ?? []) {
    const directory = directories.get(mount.name);
    if (directory === undefined) throw new Error(`${workload.name} mounts ${mount.name}, which is no volume of its pod`);
    mounts.set(mount.mountPath, directory);
  }
  return mounts;
}

/**
 * The mode the kubelet gives a Secret volume's files: its defaultMode (0644 unset), plus read for
 * the group when the pod sets fsGroup (the files' group is then the fsGroup: 0400 becomes 0440).
 */
export function secretFileMode(workload: Workload, secret: { defaultMode?: number }): number {
  return (secret.defaultMode ?? 0o644) | (workload.pod.securityContext?.fsGroup === undefined ? 0 : 0o440);
}

/** A container's argument with each path inside a mount (`/tls/tls.crt`, `-data_dir=/data`) turned into the path of that mount's directory. */
export function onHost(arg: string, mounts: ReadonlyMap<string, string>): string {
  const match = /^(-{1,2}[A-Za-z_]+=)?(\/.*)$/.exec(arg);
  if (!match) return arg;
  const [, flag = '', file] = match;
  for (const [mountPath, directory] of mounts) {
    if (file === mountPath || file!.startsWith(`${mountPath}/`)) return `${flag}${directory}${file!.slice(mountPath.length)}`;
  }
  return arg;
}

/** A place connections start or end: a pod (namespace, labels, container ports) or an address outside the cluster. */
export type Endpoint =
  | { kind: 'pod'; name: string; namespace: string; namespaceLabels: Record<string, string>; labels: Record<string, string>; ports: ContainerPort[]; ip: string }
  | { kind: 'outside'; name: string; ip: string };

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (selector === undefined) return true;
  const labelsMatch = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    labelsMatch &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      switch (operator) {
        case 'In':
          return key in labels && values.includes(labels[key]!);
        case 'NotIn':
          return !(key in labels) || !values.includes(labels[key]!);
        case 'Exists':
          return key in labels;
        case 'DoesNotExist':
          return !(key in labels);
        default:
          throw new Error(`unknown selector operator ${operator}`);
      }
    })
  );
}

function policyTypes(policy: KubeObject): string[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

/** Whether a rule's peer (podSelector, namespaceSelector, ipBlock) names `endpoint`, for a policy of `namespace`. */
function peerMatches(peer: any, endpoint: Endpoint, namespace: string): boolean {
  if (peer.ipBlock) {
    const block = new BlockList();
    const [network, prefix] = String(peer.ipBlock.cidr).split('/');
    block.addSubnet(network!, Number(prefix), isIPv4(network!) ? 'ipv4' : 'ipv6');
    const except = new BlockList();
    for (const cidr of peer.ipBlock.except ?? []) {
      const [exceptNetwork, exceptPrefix] = String(cidr).split('/');
      except.addSubnet(exceptNetwork!, Number(exceptPrefix), 'ipv4');
    }
    return block.check(endpoint.ip) && !except.check(endpoint.ip);
  }
  if (endpoint.kind !== 'pod') return false;
  const namespaceMatches = peer.namespaceSelector ? selects(peer.namespaceSelector, endpoint.namespaceLabels) : endpoint.namespace === namespace;
  return namespaceMatches && selects(peer.podSelector, endpoint.labels);
}

/** Whether a rule's ports admit `port` (a number, or the name of one of the destination's container ports). */
function portMatches(rulePorts: any[] | undefined, destination: Endpoint, port: number, protocol: string): boolean {
  if (rulePorts === undefined || rulePorts.length === 0) return true;
  return rulePorts.some((rulePort) => {
    if ((rulePort.protocol ?? 'TCP') !== protocol) return false;
    if (rulePort.port === undefined) return true;
    if (typeof rulePort.port === 'number') return port >= rulePort.port && port <= (rulePort.endPort ?? rulePort.port);
    return destination.kind === 'pod' && destination.ports.some((each) => each.name === rulePort.port && each.containerPort === port && (each.protocol ?? 'TCP') === protocol);
  });
}

/** One direction: whether the policies of `subject`'s namespace that isolate it let the connection through. */
function admitted(policies: readonly KubeObject[], direction: 'Ingress' | 'Egress', subject: Endpoint, other: Endpoint, destination: Endpoint, port: number, protocol: string): boolean {
  if (subject.kind !== 'pod') return true;
  const isolating = policies.filter(
    (policy) => (policy.metadata.namespace ?? subject.namespace) === subject.namespace && selects(policy.spec.podSelector, subject.labels) && policyTypes(policy).includes(direction),
  );
  if (isolating.length === 0) return true;
  const rulesKey = direction === 'Ingress' ? 'ingress' : 'egress';
  const peersKey = direction === 'Ingress' ? 'from' : 'to';
  return isolating.some((policy) =>
    (policy.spec[rulesKey] ?? []).some(
      (rule: any) =>
        (rule[peersKey] === undefined || rule[peersKey].some((peer: any) => peerMatches(peer, other, subject.namespace))) && portMatches(rule.ports, destination, port, protocol),
    ),
  );
}

/** Whether the policies let `source` open a connection to `destination` on `port`: its egress and the destination's ingress must both allow it. */
export function connectionAllowed(policies: readonly KubeObject[], source: Endpoint, destination: Endpoint, port: number, protocol = 'TCP'): boolean {
  return egressAllows(policies, source, destination, port, protocol) && ingressAllows(policies, source, destination, port, protocol);
}

/** Whether the policies isolating `source` for egress (if any) let it connect to `destination` on `port`. */
export function egressAllows(policies: readonly KubeObject[], source: Endpoint, destination: Endpoint, port: number, protocol = 'TCP'): boolean {
  return admitted(policies, 'Egress', source, destination, destination, port, protocol);
}

/** Whether the policies isolating `destination` for ingress (if any) admit `source` on `port`. */
export function ingressAllows(policies: readonly KubeObject[], source: Endpoint, destination: Endpoint, port: number, protocol = 'TCP'): boolean {
  return admitted(policies, 'Ingress', destination, source, destination, port, protocol);
}
