/**
 * The Kubernetes manifests (deploy/k8s): each overlay renders with `kubectl kustomize`, every
 * object meets its OpenAPI schema, and the rendered objects keep the node's isolation rules — key
 * material in the keystore's pod only, one identity per workload, one writer where there must be
 * one, hardened non-root containers with probes and limits, and a network that admits exactly the
 * node's call graph.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devnetNetworkKeys, getProfile, type ChainId } from '@ledger-node/chain';
import { allFlags, envVariable, metricsListener, parseFlags, SECRET_FILE_FLAGS, secretFileAccess, secretModeProblem, serviceAddress, storeTarget } from '@ledger-node/config';
import {
  connectionAllowed,
  containerLaunch,
  egressAllows,
  ingressAllows,
  mountVolumes,
  objectNamed,
  onHost,
  renderManifests,
  schemaViolation,
  secretFileMode,
  strictViolations,
  selects,
  tempDir,
  workloadsOf,
  type Endpoint,
  type KubeObject,
  type Workload,
} from '@ledger-node/test-utils';

const overlays = ['dev', 'prod', 'postgres'] as const;
const rendered = Object.fromEntries(overlays.map((overlay) => [overlay, renderManifests(`overlays/${overlay}`)])) as Record<(typeof overlays)[number], KubeObject[]>;
const GRPC_SERVICES = ['ledger-store', 'keystore', 'submission', 'sync'] as const;
const NODE_SERVICES = [...GRPC_SERVICES, 'facade'] as const;

/**
 * An image a cluster pulls from where the manifest says: a registry host first (a name with a dot
 * or a port, or localhost; a bare `ledger-node` means Docker Hub's library), then a tag other than
 * `latest`, or a digest.
 */
function pinnedImage(image: string): boolean {
  const match = /^([^/]+)\/([^:@]+)(?::([\w.-]+))?(?:@(sha256:[0-9a-f]{64}))?$/.exec(image);
  if (!match) return false;
  const [, registry, , tag, digest] = match;
  const registryHost = registry!.includes('.') || registry!.includes(':') || registry === 'localhost';
  return registryHost && (digest !== undefined || (tag !== undefined && tag !== 'latest'));
}

const containersOf = (workload: Workload): any[] => [...(workload.pod.initContainers ?? []), ...workload.pod.containers];
const isNodeImage = (image: string) => /(^|\/)ledger-node(:|@|$)/.test(image);
const component = (workload: Workload) => workload.labels['app.kubernetes.io/component'];
const nodeWorkload = (objects: KubeObject[], service: string) => workloadsOf(objects).find((workload) => component(workload) === service)!;
/** The service a ledger-node container runs: its workload's, or the ledger-store for a facade's reader beside it (postgres overlay). */
const serviceOf = (workload: Workload, container: { name: string }) => (container.name === 'ledger-store-reader' ? 'ledger-store' : workload.name);

const volumes = tempDir('kubernetes-');
afterAll(() => volumes.remove());
/** The flags without the checks that read the files they name (those are inside the pod). */
const uncheckedFlags = allFlags.map((spec) => ({ ...spec, check: undefined }));

/** The flags a ledger-node container runs with, from its arguments and its LEDGER_NODE_* environment, paths as the container sees them. */
function parsedLaunch(objects: KubeObject[], workload: Workload, containerName?: string) {
  const { args, env } = containerLaunch(objects, workload, containerName);
  return parseFlags(args, uncheckedFlags, { env });
}

/** A container's environment with each path inside a mount turned into the path of that mount's directory. */
const envOnHost = (env: Record<string, string>, mounts: ReadonlyMap<string, string>) => Object.fromEntries(Object.entries(env).map(([name, value]) => [name, onHost(value, mounts)]));

/** The database passwords the tests give the store Secrets and the lock role's (values no manifest may show). */
const STORE_PASSWORD = 'pg-test-password-never-in-a-manifest';
const LOCK_PASSWORD = 'pg-lock-password-never-in-a-manifest';
/** The postgres overlay's database password Secrets, as the operator creates them. */
const DATABASE_SECRETS: Record<string, string> = {
  'ledger-store-db-writer': STORE_PASSWORD,
  'ledger-store-db-reader': STORE_PASSWORD,
  // sync's and submission's role for their writer locks, granted CONNECT alone.
  'ledger-node-db-lock': LOCK_PASSWORD,
};

/** The Secrets a pod's volumes name, as the operator would create them: a password for the database's, nothing in the others. */
function operatorSecrets(workload: Workload): Record<string, Record<string, string>> {
  return Object.fromEntries(
    (workload.pod.volumes ?? [])
      .filter((volume: { secret?: unknown }) => volume.secret)
      .map((volume: { secret: { secretName: string } }) => {
        const password = DATABASE_SECRETS[volume.secret.secretName];
        return [volume.secret.secretName, password === undefined ? {} : { password }];
      }),
  );
}

/** Secret volumes a pod mounts, by mount path: the Secret's name. */
function mountedSecrets(workload: Workload): Map<string, string> {
  const secretVolumes = new Map<string, string>();
  for (const volume of workload.pod.volumes ?? []) if (volume.secret) secretVolumes.set(volume.name, volume.secret.secretName);
  const mounts = new Map<string, string>();
  for (const container of containersOf(workload)) {
    for (const mount of container.volumeMounts ?? []) if (secretVolumes.has(mount.name)) mounts.set(mount.mountPath, secretVolumes.get(mount.name)!);
  }
  return mounts;
}

describe('an image reference the tests accept', () => {
  it.each([
    ['registry.example.com/ledger-node:0.1.0', true],
    ['docker.io/library/ledger-node:dev', true],
    ['localhost:5000/ledger-node@sha256:' + 'a'.repeat(64), true],
    ['ledger-node', false],
    ['ledger-node:0.1.0', false],
    ['otel/opentelemetry-collector-contrib:0.116.0', false],
    ['registry.example.com/ledger-node', false],
    ['registry.example.com/ledger-node:latest', false],
  ])('%s: %s', (image, pinned) => expect(pinnedImage(image)).toBe(pinned));
});

describe.each(overlays)('the %s overlay', (overlay) => {
  const objects = rendered[overlay];
  const workloads = workloadsOf(objects);

  it('renders one workload per service, each of its own kind', () => {
    const kinds = Object.fromEntries(NODE_SERVICES.map((service) => [service, nodeWorkload(objects, service)?.kind]));
    // With PostgreSQL the ledger-store holds no data of its own: a Deployment.
    expect(kinds).toEqual({ 'ledger-store': overlay === 'postgres' ? 'Deployment' : 'StatefulSet', keystore: 'StatefulSet', submission: 'Deployment', sync: 'Deployment', facade: 'Deployment' });
    for (const service of NODE_SERVICES) expect(nodeWorkload(objects, service).name).toBe(service);
  });

  it('meets the OpenAPI schemas of Kubernetes and cert-manager, object by object', async () => {
    const violations: string[] = [];
    for (const object of objects) {
      const violation = await schemaViolation(object);
      if (violation) violations.push(`${object.kind} ${object.metadata.name}: ${violation}`);
    }
    expect(violations).toEqual([]);
    expect(objects.every((object) => object.kind === 'Namespace' || object.metadata.namespace === 'ledger-node')).toBe(true);
  });

  it('declares no field its kind does not have (strict, as kubeconform -strict): a misspelt field fails', () => {
    expect(strictViolations(objects)).toEqual([]);
    const misspelt = structuredClone(workloads[0]!.object) as any;
    misspelt.spec.template.spec.securityContext = { ...misspelt.spec.template.spec.securityContext, runAsNonroot: true };
    misspelt.spec.template.spec.containers[0].readinesProbe = { tcpSocket: { port: 1 } };
    expect(strictViolations([misspelt])).toEqual([
      `${misspelt.kind} ${misspelt.metadata.name}: unknown field $.spec.template.spec.containers[0].readinesProbe`,
      `${misspelt.kind} ${misspelt.metadata.name}: unknown field $.spec.template.spec.securityContext.runAsNonroot`,
    ]);
  });

  it('names every container\'s image with its registry and a tag or digest, never `latest`', () => {
    const images = workloads.flatMap((workload) => containersOf(workload).map((container) => `${workload.name}/${container.name}: ${container.image}`));
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((entry) => !pinnedImage(entry.slice(entry.indexOf(': ') + 2)))).toEqual([]);
  });

  it('gives every ledger-node container a command line the CLI accepts, every $(VAR) defined', () => {
    for (const workload of workloads.filter((each) => isNodeImage(each.pod.containers[0].image))) {
      for (const container of workload.pod.containers.filter((each: { image: string }) => isNodeImage(each.image))) {
        const where = `${workload.name}/${container.name}`;
        const { args, env } = containerLaunch(objects, workload, container.name);
        expect(args.filter((arg) => arg.includes('$(')), where).toEqual([]);
        // Files its ConfigMap volumes hold (-validators) are read and checked where the container reads them.
        // The operator's Secrets, as files: the database passwords (checked by -store_password_file), the others empty.
        const mounts = mountVolumes(objects, workload, path.join(volumes.dir, overlay, container.name), operatorSecrets(workload), container.name);
        // Its LEDGER_NODE_* variables are checked as the flags they set.
        const { positionals } = parseFlags(args.map((arg) => onHost(arg, mounts)), allFlags, { env: envOnHost(env, mounts) });
        expect(positionals, where).toEqual(workload.name === 'devnet' ? ['devnet'] : ['serve', serviceOf(workload, container)]);
        // The exec probes are CLI command lines too, run in the container's environment.
        for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
          if (!probe?.exec) continue;
          const [program, ...probeArgs] = probe.exec.command as string[];
          expect(program).toBe('ledger-node');
          expect(parseFlags(probeArgs.map((arg) => onHost(arg, mounts)), allFlags, { env: envOnHost(env, mounts) }).positionals, where).toEqual(['probe', serviceOf(workload, container)]);
        }
      }
    }
  });

  it('sets the shared flags once, as LEDGER_NODE_<FLAG> variables of a ConfigMap every ledger-node container reads, each naming a flag', () => {
    const flagVariables = new Set(allFlags.map((spec) => envVariable(spec.name)));
    for (const configMap of objects.filter((object) => object.kind === 'ConfigMap')) {
      const unknown = Object.keys(configMap.data ?? {}).filter((key) => key.startsWith('LEDGER_NODE_') && !flagVariables.has(key));
      expect(unknown, configMap.metadata.name).toEqual([]);
    }
    const shared = Object.keys(objectNamed(objects, 'ConfigMap', 'ledger-node-flags').data ?? {});
    expect(shared).toEqual(expect.arrayContaining(['LEDGER_NODE_CHAIN', 'LEDGER_NODE_LOG_LEVEL', 'LEDGER_NODE_ENDPOINT']));
    for (const workload of workloads.filter((each) => isNodeImage(each.pod.containers[0].image))) {
      for (const container of workload.pod.containers.filter((each: { image: string }) => isNodeImage(each.image))) {
        const where = `${workload.name}/${container.name}`;
        const { args, env } = containerLaunch(objects, workload, container.name);
        for (const variable of shared) expect(env[variable], `${where} ${variable}`).toBe(objectNamed(objects, 'ConfigMap', 'ledger-node-flags').data![variable]);
        // Not repeated in the arguments: the ConfigMap is the one place to change a shared flag.
        const repeated = args.filter((arg) => shared.some((variable) => new RegExp(`^--?${variable.slice('LEDGER_NODE_'.length).toLowerCase()}(=|$)`).test(arg)));
        expect(repeated, where).toEqual([]);
        const flags = parsedLaunch(objects, workload, container.name).flags;
        expect(flags.string('chain'), where).toBe(env.LEDGER_NODE_CHAIN);
        expect(flags.origin('chain'), where).toEqual({ kind: 'env', variable: 'LEDGER_NODE_CHAIN' });
      }
    }
  });

  it('runs every container as a non-root user on a read-only root filesystem, without capabilities, under RuntimeDefault seccomp', () => {
    for (const workload of workloads) {
      for (const container of containersOf(workload)) {
        const where = `${workload.name}/${container.name}`;
        const pod = workload.pod.securityContext ?? {};
        const own = container.securityContext ?? {};
        expect(own.runAsNonRoot ?? pod.runAsNonRoot, where).toBe(true);
        expect(own.runAsUser ?? pod.runAsUser, where).toBeGreaterThan(0);
        expect(own.readOnlyRootFilesystem, where).toBe(true);
        expect(own.allowPrivilegeEscalation, where).toBe(false);
        expect(own.capabilities?.drop, where).toEqual(['ALL']);
        expect(own.capabilities?.add ?? [], where).toEqual([]);
        expect((own.seccompProfile ?? pod.seccompProfile)?.type, where).toBe('RuntimeDefault');
      }
      expect(workload.pod.automountServiceAccountToken, workload.name).toBe(false);
      expect(workload.pod.hostNetwork ?? false, workload.name).toBe(false);
    }
  });

  it("mounts every Secret with defaultMode 0400, whose files the kubelet makes 0440 under the pod's fsGroup: each container accepts that for its secret files (-secret_group_read), never a file others may read", () => {
    for (const workload of workloads) {
      const secretVolumes = (workload.pod.volumes ?? []).filter((volume: { secret?: unknown }) => volume.secret);
      for (const volume of secretVolumes) expect(volume.secret.defaultMode, `${workload.name} ${volume.name}`).toBe(0o400);
      if (secretVolumes.length > 0) expect(workload.pod.securityContext?.fsGroup, workload.name).toBe(1000);
      for (const container of containersOf(workload).filter((each) => isNodeImage(each.image))) {
        const flags = parsedLaunch(objects, workload, container.name).flags;
        const access = secretFileAccess(flags);
        for (const flag of Object.keys(SECRET_FILE_FLAGS)) {
          const file = flags.string(flag);
          if (file === undefined) continue;
          const where = `${workload.name}/${container.name} -${flag}`;
          expect(secretModeProblem(file, flag, secretFileMode(workload, { defaultMode: 0o400 }), access), where).toBeUndefined();
          expect(secretModeProblem(file, flag, 0o444, access), where).toMatch(/must be readable by its owner and group only/);
        }
      }
    }
  });

  it('gives every container readiness and liveness probes, resource requests and limits', () => {
    for (const workload of workloads) {
      for (const container of workload.pod.containers) {
        const where = `${workload.name}/${container.name}`;
        expect(container.readinessProbe, where).toBeDefined();
        expect(container.livenessProbe, where).toBeDefined();
        for (const resource of ['cpu', 'memory']) {
          expect(container.resources?.requests?.[resource], `${where} ${resource} request`).toBeDefined();
          expect(container.resources?.limits?.[resource], `${where} ${resource} limit`).toBeDefined();
        }
      }
    }
  });

  it('probes each gRPC service on grpc.health.v1 at its own port over its own certificate, the facade on /healthz and /readyz', () => {
    for (const service of GRPC_SERVICES) {
      const workload = nodeWorkload(objects, service);
      const container = workload.pod.containers[0];
      const grpcPort = container.ports.find((port: { name: string }) => port.name === 'grpc').containerPort;
      const probe = parseFlags(container.readinessProbe.exec.command.slice(1), allFlags).flags;
      expect(serviceAddress(probe, service)).toBe(`127.0.0.1:${grpcPort}`);
      const served = parsedLaunch(objects, workload).flags;
      for (const flag of ['grpc_tls_cert', 'grpc_tls_key', 'grpc_tls_ca']) expect(probe.string(flag), `${service} -${flag}`).toBe(served.string(flag));
    }
    const facade = nodeWorkload(objects, 'facade').pod.containers[0];
    expect(facade.livenessProbe.httpGet.path).toBe('/healthz');
    expect(facade.readinessProbe.httpGet.path).toBe('/readyz');
  });

  it('has each gRPC service listen on its container port and the others reach it through its Service', () => {
    const services = objects.filter((object) => object.kind === 'Service');
    for (const workload of workloads.filter((each) => (NODE_SERVICES as readonly string[]).includes(component(each)!))) {
      const flags = parsedLaunch(objects, workload).flags;
      for (const target of GRPC_SERVICES) {
        const address = flags.string(`${target.replace('-', '_')}_addr`);
        if (address === undefined) continue;
        if (address.startsWith('unix:')) {
          // A store reader beside the facade (postgres overlay): a container of the same pod listens there.
          const listener = workload.pod.containers.find((container: { name: string }) => container.name !== workload.pod.containers[0].name && parsedLaunch(objects, workload, container.name).flags.string(`${target.replace('-', '_')}_addr`) === address);
          expect(listener?.name, `${workload.name} -> ${address}`).toBe(`${target}-reader`);
          continue;
        }
        const [host, port] = address.split(':');
        const targetWorkload = nodeWorkload(objects, target);
        const grpcPort = targetWorkload.pod.containers[0].ports.find((each: { name: string }) => each.name === 'grpc').containerPort;
        if (workload.name === targetWorkload.name) {
          expect(address, `${target} listens`).toBe(`0.0.0.0:${grpcPort}`);
          continue;
        }
        const service = services.find((each) => each.metadata.name === host);
        expect(service, `${workload.name} -> ${address}: a Service named ${host}`).toBeDefined();
        expect(Object.entries(service!.spec.selector).every(([key, value]) => targetWorkload.labels[key] === value), `${host} selects ${target}`).toBe(true);
        const servicePort = service!.spec.ports.find((each: { port: number }) => each.port === Number(port));
        expect(servicePort?.targetPort, `${workload.name} -> ${address}`).toBe('grpc');
      }
    }
  });

  it('scrapes each service at the metrics port its flags open', () => {
    for (const service of NODE_SERVICES) {
      const workload = nodeWorkload(objects, service);
      const listener = metricsListener(parsedLaunch(objects, workload).flags, service);
      const annotations = workload.object.spec.template.metadata.annotations;
      expect(annotations['prometheus.io/scrape'], service).toBe('true');
      expect(Number(annotations['prometheus.io/port']), service).toBe(listener?.port);
      expect(workload.pod.containers[0].ports.find((port: { name: string }) => port.name === 'metrics')?.containerPort, service).toBe(listener?.port);
      expect(listener?.host, service).toBe('0.0.0.0');
    }
  });

  it('exposes the keystore and ledger-store inside the cluster only, the facade through its Service (and an Ingress in prod)', () => {
    for (const service of objects.filter((object) => object.kind === 'Service')) {
      expect(['LoadBalancer', 'NodePort'], service.metadata.name).not.toContain(service.spec.type ?? 'ClusterIP');
      expect(service.spec.externalIPs ?? [], service.metadata.name).toEqual([]);
    }
    for (const ingress of objects.filter((object) => object.kind === 'Ingress')) {
      for (const rule of ingress.spec.rules) {
        for (const { backend } of rule.http.paths) expect(backend.service.name).toBe('facade');
      }
    }
    expect(objects.some((object) => object.kind === 'Ingress')).toBe(overlay !== 'dev');
  });

  it('keeps key material in the keystore: its passphrase and each service certificate are mounted by their own workload only, none in an environment', () => {
    const mounted = new Map<string, string[]>();
    for (const workload of workloads) {
      for (const secret of mountedSecrets(workload).values()) mounted.set(secret, [...(mounted.get(secret) ?? []), workload.name]);
      for (const container of containersOf(workload)) {
        expect(container.envFrom?.filter((source: { secretRef?: unknown }) => source.secretRef) ?? [], workload.name).toEqual([]);
        expect(container.env?.filter((variable: { valueFrom?: { secretKeyRef?: unknown } }) => variable.valueFrom?.secretKeyRef) ?? [], workload.name).toEqual([]);
      }
    }
    expect(Object.fromEntries(mounted)).toEqual({
      'keystore-passphrase': ['keystore'],
      'facade-rpc-token': ['facade'],
      ...Object.fromEntries(NODE_SERVICES.map((service) => [`${service}-tls`, [service]])),
      // The database passwords: the writer's, the read-only role's in each facade pod (its reader container alone mounts it), and the lock role's in sync and submission.
      ...(overlay === 'postgres' ? { 'ledger-store-db-writer': ['ledger-store'], 'ledger-store-db-reader': ['facade'], 'ledger-node-db-lock': ['submission', 'sync'] } : {}),
    });
    const keystore = parsedLaunch(objects, nodeWorkload(objects, 'keystore')).flags;
    expect(mountedSecrets(nodeWorkload(objects, 'keystore')).get(path.dirname(keystore.string('password_file')!))).toBe('keystore-passphrase');
    const facade = parsedLaunch(objects, nodeWorkload(objects, 'facade')).flags;
    expect(mountedSecrets(nodeWorkload(objects, 'facade')).get(path.dirname(facade.string('rpc_token_file')!))).toBe('facade-rpc-token');
    for (const service of NODE_SERVICES) {
      const flags = parsedLaunch(objects, nodeWorkload(objects, service)).flags;
      const secrets = mountedSecrets(nodeWorkload(objects, service));
      for (const flag of ['grpc_tls_cert', 'grpc_tls_key', 'grpc_tls_ca']) expect(secrets.get(path.dirname(flags.string(flag)!)), `${service} -${flag}`).toBe(`${service}-tls`);
    }
    // Secrets are created by the operator (or cert-manager), never written in the manifests.
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    for (const configMap of objects.filter((object) => object.kind === 'ConfigMap')) {
      // -secret_group_read is a boolean about secret files, not a secret.
      const named = Object.keys(configMap.data ?? {}).filter((key) => key !== envVariable('secret_group_read'));
      expect(named.filter((key) => /PASSWORD|PASSPHRASE|TOKEN|SECRET|PRIVATE/i.test(key)), configMap.metadata.name).toEqual([]);
    }
  });

  it('keeps one writer: one sync, one submission and one ledger-store (with PostgreSQL each also elected by its database lock), the stores on their own volumes, and only the facade scales', () => {
    const strategyOf = (service: string) => {
      const { spec } = nodeWorkload(objects, service).object;
      return { replicas: spec.replicas, strategy: spec.strategy };
    };
    const recreated = { replicas: 1, strategy: { type: 'Recreate' } };
    // With PostgreSQL sync also holds the database's 'sync' lock: a pod cut off from the cluster and its replacement never both write.
    expect(strategyOf('sync')).toEqual(recreated);
    // submission's journal admits one pod, lock or not; the ledger-store writer, since a standby one says SERVING.
    expect(strategyOf('submission')).toEqual(recreated);
    if (overlay === 'postgres') expect(strategyOf('ledger-store')).toEqual(recreated);
    for (const service of overlay === 'postgres' ? ['keystore'] : ['ledger-store', 'keystore']) {
      const workload = nodeWorkload(objects, service);
      expect(workload.object.spec.replicas, service).toBe(1);
      expect(workload.object.spec.volumeClaimTemplates.map((claim: KubeObject) => claim.metadata.name), service).toEqual(['data']);
      const dataMount = workload.pod.containers[0].volumeMounts.find((mount: { name: string }) => mount.name === 'data');
      expect(parsedLaunch(objects, workload).flags.string('data_dir'), service).toBe(dataMount.mountPath);
    }
    if (overlay === 'postgres') {
      // The ledger-store keeps nothing on a volume.
      const store = nodeWorkload(objects, 'ledger-store');
      expect(store.object.spec.volumeClaimTemplates).toBeUndefined();
      expect((store.pod.volumes ?? []).filter((volume: { persistentVolumeClaim?: unknown }) => volume.persistentVolumeClaim)).toEqual([]);
      expect(objects.filter((object) => object.kind === 'PersistentVolumeClaim').map((claim) => claim.metadata.name)).toEqual(['submission-data']);
    }
    const submission = nodeWorkload(objects, 'submission');
    const journal = submission.pod.volumes.find((volume: { name: string }) => volume.name === 'data').persistentVolumeClaim.claimName;
    expect(objectNamed(objects, 'PersistentVolumeClaim', journal).spec.accessModes).toEqual([overlay === 'dev' ? 'ReadWriteOnce' : 'ReadWriteOncePod']);
    const scaled = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').map((hpa) => `${hpa.spec.scaleTargetRef.kind}/${hpa.spec.scaleTargetRef.name}`);
    expect(scaled).toEqual(['Deployment/facade']);
  });

  it('spreads every workload of more than one pod over nodes and zones', () => {
    const autoscaled = new Set(objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name as string));
    const replicated = workloads.filter((workload) => (workload.object.spec.replicas ?? 1) > 1 || autoscaled.has(workload.name));
    expect(replicated.map((workload) => workload.name)).toContain('facade');
    for (const workload of replicated) {
      const constraints: { topologyKey: string; labelSelector: { matchLabels?: Record<string, string> } }[] = workload.pod.topologySpreadConstraints ?? [];
      expect(constraints.map((constraint) => constraint.topologyKey).sort(), workload.name).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
      for (const constraint of constraints) expect(selects(constraint.labelSelector, workload.labels), `${workload.name} ${constraint.topologyKey}`).toBe(true);
    }
  });

  it('keeps PodDisruptionBudgets off the writers: a standby is never Ready, so a budget would forbid evicting the holder', () => {
    const budgeted = (service: string) =>
      objects.filter((object) => object.kind === 'PodDisruptionBudget' && selects(object.spec.selector, nodeWorkload(objects, service).labels)).map((budget) => budget.metadata.name);
    expect(Object.fromEntries(NODE_SERVICES.map((service) => [service, budgeted(service)]))).toEqual({ 'ledger-store': [], keystore: [], submission: [], sync: [], facade: ['facade'] });
  });

  it('sends every service\'s traces to the collector Service', () => {
    for (const service of NODE_SERVICES) {
      const { env } = containerLaunch(objects, nodeWorkload(objects, service));
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, service).toMatch(/^http:\/\/otel-collector(\.[a-z0-9-]+)?:4318$/);
      expect(env.OTEL_TRACES_EXPORTER, service).toBe('otlp');
    }
  });
});

describe('the NetworkPolicies', () => {
  /** Pods and addresses around the node: DNS, Prometheus, an Ingress controller, a collector elsewhere, the Internet. */
  const neighbours: Endpoint[] = [
    { kind: 'pod', name: 'kube-dns', namespace: 'kube-system', namespaceLabels: { 'kubernetes.io/metadata.name': 'kube-system' }, labels: { 'k8s-app': 'kube-dns' }, ports: [{ containerPort: 53, protocol: 'UDP' }, { containerPort: 53, protocol: 'TCP' }], ip: '10.96.0.10' },
    { kind: 'pod', name: 'prometheus', namespace: 'monitoring', namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' }, labels: { 'app.kubernetes.io/name': 'prometheus' }, ports: [{ containerPort: 9090 }], ip: '10.244.9.1' },
    { kind: 'pod', name: 'ingress-controller', namespace: 'ingress-nginx', namespaceLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' }, labels: { 'app.kubernetes.io/name': 'ingress-nginx' }, ports: [{ containerPort: 443 }], ip: '10.244.9.2' },
    { kind: 'pod', name: 'observability/otel-collector', namespace: 'observability', namespaceLabels: { 'kubernetes.io/metadata.name': 'observability' }, labels: { 'app.kubernetes.io/name': 'otel-collector' }, ports: [{ name: 'otlp-http', containerPort: 4318 }], ip: '10.244.9.3' },
    // A Prometheus and a receiver of OTLP in a namespace of someone else's: they reach nothing of the node.
    { kind: 'pod', name: 'tenant/prometheus', namespace: 'tenant', namespaceLabels: { 'kubernetes.io/metadata.name': 'tenant' }, labels: { 'app.kubernetes.io/name': 'prometheus' }, ports: [{ containerPort: 9090 }], ip: '10.244.9.6' },
    { kind: 'pod', name: 'tenant/collector', namespace: 'tenant', namespaceLabels: { 'kubernetes.io/metadata.name': 'tenant' }, labels: { 'app.kubernetes.io/name': 'otel-collector' }, ports: [{ name: 'otlp-http', containerPort: 4318 }], ip: '10.244.9.7' },
    { kind: 'outside', name: 'internet', ip: '203.0.113.7' },
    // Addresses that are not the Internet, outside the cluster's pods: no egress "to the Internet" may reach them.
    { kind: 'outside', name: 'cloud-metadata', ip: '169.254.169.254' },
    { kind: 'outside', name: 'carrier-grade-nat', ip: '100.100.100.200' },
    { kind: 'outside', name: 'private-network', ip: '172.20.0.5' },
    { kind: 'outside', name: 'loopback', ip: '127.0.0.1' },
    // The postgres overlay's database (CloudNativePG Cluster ledger-db), and another database beside it.
    { kind: 'pod', name: 'databases/ledger-db', namespace: 'databases', namespaceLabels: { 'kubernetes.io/metadata.name': 'databases' }, labels: { 'cnpg.io/cluster': 'ledger-db' }, ports: [{ containerPort: 5432 }], ip: '10.244.9.4' },
    { kind: 'pod', name: 'databases/other-db', namespace: 'databases', namespaceLabels: { 'kubernetes.io/metadata.name': 'databases' }, labels: { 'cnpg.io/cluster': 'other-db' }, ports: [{ containerPort: 5432 }], ip: '10.244.9.5' },
  ];

  /** The pods of the rendered workloads, each at an address of the cluster's pod network. */
  function podsOf(objects: KubeObject[]): Endpoint[] {
    const namespace = objectNamed(objects, 'Namespace', 'ledger-node');
    return workloadsOf(objects).map((workload, index) => ({
      kind: 'pod',
      name: workload.name,
      namespace: 'ledger-node',
      namespaceLabels: { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': 'ledger-node' },
      labels: workload.labels,
      ports: workload.pod.containers.flatMap((container: { ports?: unknown[] }) => container.ports ?? []),
      ip: `10.244.1.${index + 1}`,
    }));
  }

  /** Every connection `allows` lets through between the pods and their neighbours, as `source -> destination:port`. */
  function connections(objects: KubeObject[], allows: typeof connectionAllowed, endpoints = [...podsOf(objects), ...neighbours]): string[] {
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
    const inNamespace = (endpoint: Endpoint) => endpoint.kind === 'pod' && endpoint.namespace === 'ledger-node';
    const allowed: string[] = [];
    for (const source of endpoints) {
      for (const destination of endpoints) {
        // Connections between the neighbours are not the node's to rule.
        if (source === destination || (!inNamespace(source) && !inNamespace(destination))) continue;
        const ports = destination.kind === 'pod' ? destination.ports : OUTSIDE_PORTS.map((containerPort) => ({ containerPort, protocol: 'TCP' }));
        for (const { containerPort, protocol = 'TCP' } of ports) {
          if (allows(policies, source, destination, containerPort, protocol)) allowed.push(`${source.name} -> ${destination.name}:${containerPort}${protocol === 'UDP' ? '/udp' : ''}`);
        }
      }
    }
    return allowed.sort();
  }

  /** The ports an address outside the cluster is tried on: the upstreams' and others. */
  const OUTSIDE_PORTS = [22, 443, 5432, 6006, 51233];
  /** The ports sync and submission reach the Internet on: the upstreams' of each overlay's -endpoint, and the published lists' (443). */
  const upstreamPortsOf = (overlay: (typeof overlays)[number]) => (overlay === 'dev' ? [443, 51233] : [443]);

  /** The node's call graph: what each overlay must allow, and nothing else. */
  const callGraph = [
    'sync -> ledger-store:50051', 'facade -> ledger-store:50051', 'submission -> ledger-store:50051',
    'submission -> keystore:50052', 'facade -> keystore:50052',
    'facade -> submission:50053',
    'facade -> sync:50054',
  ];
  /** With PostgreSQL the facade reads its pod's own reader ledger-store, over a unix socket: no connection. */
  const graphOf = (overlay: (typeof overlays)[number]) => (overlay === 'postgres' ? callGraph.filter((edge) => edge !== 'facade -> ledger-store:50051') : callGraph);
  function intended(overlay: (typeof overlays)[number], nodePods: string[], extra: string[], graph = callGraph): string[] {
    const metricsPort = { 'ledger-store': 9400, keystore: 9401, submission: 9402, sync: 9403, facade: 9404 } as Record<string, number>;
    return [
      ...graph,
      ...upstreamPortsOf(overlay).flatMap((port) => [`sync -> internet:${port}`, `submission -> internet:${port}`]),
      ...nodePods.flatMap((pod) => [`${pod} -> kube-dns:53`, `${pod} -> kube-dns:53/udp`]),
      ...NODE_SERVICES.map((service) => `prometheus -> ${service}:${metricsPort[service]}`),
      ...neighbours.map((neighbour) => neighbour.name).flatMap((client) => [`${client} -> facade:7545`, `${client} -> facade:7544`, `${client} -> facade:7546`]),
      ...extra,
    ].sort();
  }

  it('admit exactly the node\'s call graph in the dev overlay', () => {
    const nodePods = [...NODE_SERVICES, 'devnet'];
    expect(connections(rendered.dev, connectionAllowed)).toEqual(
      intended('dev', nodePods, [
        'sync -> devnet:6006', 'submission -> devnet:6006',
        ...nodePods.flatMap((pod) => [`${pod} -> otel-collector:4318`, `${pod} -> observability/otel-collector:4318`]),
      ]),
    );
  });

  it('admit exactly the node\'s call graph in the prod overlay', () => {
    expect(connections(rendered.prod, connectionAllowed)).toEqual(intended('prod', [...NODE_SERVICES], NODE_SERVICES.map((pod) => `${pod} -> observability/otel-collector:4318`)));
  });

  it('admit exactly the node\'s call graph in the postgres overlay: the database on 5432 from the ledger-store writer, each facade pod\'s reader, and sync and submission for their locks, and from nothing else', () => {
    expect(connections(rendered.postgres, connectionAllowed)).toEqual(
      intended(
        'postgres',
        [...NODE_SERVICES],
        [
          ...NODE_SERVICES.map((pod) => `${pod} -> observability/otel-collector:4318`),
          'ledger-store -> databases/ledger-db:5432',
          'facade -> databases/ledger-db:5432',
          'sync -> databases/ledger-db:5432',
          'submission -> databases/ledger-db:5432',
        ],
        graphOf('postgres'),
      ),
    );
  });

  it.each(['base', 'prod', 'postgres'])(
    'in %s let sync and submission reach the Internet on the ports of their -endpoint servers and published lists alone',
    (folder) => {
      const objects = folder === 'base' ? renderManifests('base') : rendered[folder as (typeof overlays)[number]];
      const flags = objectNamed(objects, 'ConfigMap', 'ledger-node-flags').data!;
      const profile = getProfile((flags.LEDGER_NODE_CHAIN ?? 'xrpl') as ChainId);
      const network = profile.networks.find((each) => String(each.id) === flags.LEDGER_NODE_NETWORK_ID);
      const urls = [...flags.LEDGER_NODE_ENDPOINT!.split(','), ...(network?.validatorListSites ?? [])].map((url) => new URL(url.trim()));
      const defaultPort: Record<string, string> = { 'wss:': '443', 'https:': '443', 'ws:': '80', 'http:': '80' };
      const required = [...new Set(urls.map((url) => Number(url.port || defaultPort[url.protocol])))].sort((x, y) => x - y);
      for (const policy of ['sync', 'submission']) {
        const internet = objectNamed(objects, 'NetworkPolicy', policy).spec.egress.find((rule: any) => rule.to?.some((peer: any) => peer.ipBlock?.cidr === '0.0.0.0/0'));
        expect(internet.ports?.map((port: { port: number }) => port.port).sort((x: number, y: number) => x - y), `${folder} ${policy}`).toEqual(required);
      }
    },
  );

  it('in the dev overlay follow the devnet inside the cluster', () => {
    const endpoint = objectNamed(rendered.dev, 'ConfigMap', 'ledger-node-flags').data!.LEDGER_NODE_ENDPOINT!;
    expect(new URL(endpoint).hostname).not.toContain('.');
  });

  it.each(overlays)('in the %s overlay let sync and submission reach the Internet only: every egress to 0.0.0.0/0 excepts link-local (cloud metadata), carrier-grade NAT, private, loopback and reserved ranges', (overlay) => {
    const notTheInternet = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'];
    const policies = rendered[overlay].filter((object) => object.kind === 'NetworkPolicy');
    const internetRules = policies.flatMap((policy) =>
      (policy.spec.egress ?? []).flatMap((rule: { to?: { ipBlock?: { cidr: string; except?: string[] } }[] }) =>
        (rule.to ?? []).filter((peer) => peer.ipBlock).map((peer) => ({ policy: policy.metadata.name as string, ...peer.ipBlock! })),
      ),
    );
    expect(internetRules.map((rule) => rule.policy).sort()).toEqual(['submission', 'sync']);
    for (const rule of internetRules) {
      expect(rule.cidr, rule.policy).toBe('0.0.0.0/0');
      expect([...(rule.except ?? [])].sort(), rule.policy).toEqual([...notTheInternet].sort());
    }
    const pods = podsOf(rendered[overlay]);
    for (const service of ['sync', 'submission']) {
      const pod = pods.find((each) => each.name === service)!;
      for (const ip of ['169.254.169.254', '169.254.0.1', '100.64.0.1', '100.127.255.254', '10.1.2.3', '172.31.0.1', '192.168.0.1', '127.0.0.1', '0.0.0.1', '224.0.0.251', '255.255.255.255']) {
        expect(egressAllows(policies, pod, { kind: 'outside', name: ip, ip }, 443), `${service} -> ${ip}`).toBe(false);
      }
      expect(egressAllows(policies, pod, { kind: 'outside', name: 'public', ip: '8.8.8.8' }, 443), `${service} -> a public address`).toBe(true);
    }
  });

  it.each(overlays)('repeat the call graph on both sides in the %s overlay: egress alone and ingress alone admit exactly it between the node\'s services', (overlay) => {
    const services = podsOf(rendered[overlay]).filter((pod) => (NODE_SERVICES as readonly string[]).includes(pod.name));
    const grpcOnly = (edges: string[]) => edges.filter((edge) => /:5005\d$/.test(edge));
    expect(grpcOnly(connections(rendered[overlay], egressAllows, services))).toEqual([...graphOf(overlay)].sort());
    expect(grpcOnly(connections(rendered[overlay], ingressAllows, services))).toEqual([...graphOf(overlay)].sort());
  });
});

describe('the postgres overlay', () => {
  const objects = rendered.postgres;
  const storeFlags = (workload: Workload, containerName: string) => {
    const mounts = mountVolumes(objects, workload, path.join(volumes.dir, 'postgres-store', containerName), operatorSecrets(workload), containerName);
    const { args, env } = containerLaunch(objects, workload, containerName);
    return parseFlags(args.map((arg) => onHost(arg, mounts)), allFlags, { env: envOnHost(env, mounts) }).flags;
  };

  it('runs the ledger-store writer on the database\'s primary and a reader beside each facade on its replicas, the facade calling its reader', () => {
    const writer = storeTarget(storeFlags(nodeWorkload(objects, 'ledger-store'), 'ledger-store'));
    expect(writer).toEqual({ kind: 'postgres', role: 'writer', url: 'postgres://ledger_node@ledger-db-rw.databases.svc:5432/ledger_node', password: STORE_PASSWORD });
    const facade = nodeWorkload(objects, 'facade');
    expect(facade.pod.containers.map((container: { name: string }) => container.name)).toEqual(['facade', 'ledger-store-reader']);
    const reader = storeFlags(facade, 'ledger-store-reader');
    expect(storeTarget(reader)).toEqual({ kind: 'postgres', role: 'reader', url: 'postgres://ledger_node_reader@ledger-db-ro.databases.svc:5432/ledger_node', password: STORE_PASSWORD });
    const facadeFlags = parsedLaunch(objects, facade).flags;
    expect(serviceAddress(facadeFlags, 'ledger-store')).toBe(serviceAddress(reader, 'ledger-store'));
    expect(serviceAddress(reader, 'ledger-store')).toMatch(/^unix:\//);
    // Facade replicas scale, each with its reader.
    expect(objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name)).toEqual(['facade']);
  });

  it('elects sync and submission with writer locks on the ledger-store writer\'s database, as a role of their own whose password only their containers read', () => {
    const databaseOf = (service: string) => {
      const target = storeTarget(storeFlags(nodeWorkload(objects, service), service));
      if (target.kind !== 'postgres') throw new Error(`${service} has no PostgreSQL store: ${JSON.stringify(target)}`);
      return { target, url: new URL(target.url) };
    };
    const writer = databaseOf('ledger-store').url;
    for (const service of ['sync', 'submission']) {
      const { target, url } = databaseOf(service);
      // A writer target is what syncConfig and submissionConfig turn into their lock (libs/postgres electWriter).
      expect(target, service).toEqual({ kind: 'postgres', role: 'writer', url: 'postgres://ledger_node_lock@ledger-db-rw.databases.svc:5432/ledger_node', password: LOCK_PASSWORD });
      // An advisory lock is per server and database: the primary the writer writes, never a replica.
      expect([url.host, url.pathname], service).toEqual([writer.host, writer.pathname]);
      expect(url.username, service).not.toBe(writer.username);
    }
  });

  it('keeps the database passwords in files of the ledger-store, sync and submission containers only: none in an argument, an environment or a ConfigMap', () => {
    /** The database Secret each container reads, by the service it runs: the writer's, a facade pod reader's, the lock role's. */
    const expectedSecret = (workload: Workload, container: { name: string; image: string }) => {
      if (!isNodeImage(container.image)) return undefined;
      const service = serviceOf(workload, container);
      if (service === 'ledger-store') return workload.name === 'facade' ? 'ledger-store-db-reader' : 'ledger-store-db-writer';
      return service === 'sync' || service === 'submission' ? 'ledger-node-db-lock' : undefined;
    };
    for (const workload of workloadsOf(objects)) {
      const secretVolumes = new Map<string, string>((workload.pod.volumes ?? []).filter((volume: { secret?: unknown }) => volume.secret).map((volume: any) => [volume.name, volume.secret.secretName]));
      for (const container of containersOf(workload)) {
        const where = `${workload.name}/${container.name}`;
        const mounted = (container.volumeMounts ?? []).map((mount: { name: string }) => secretVolumes.get(mount.name)).filter((name: string | undefined) => name !== undefined && name in DATABASE_SECRETS);
        const expected = expectedSecret(workload, container);
        expect(mounted, where).toEqual(expected === undefined ? [] : [expected]);
        if (!isNodeImage(container.image)) continue;
        const { args, env } = containerLaunch(objects, workload, container.name);
        for (const text of [...args, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)]) {
          expect(text, where).not.toMatch(/PGPASSWORD|PGPASSFILE|password=|postgres(ql)?:\/\/[^/@\s]*:[^/@\s]*@/i);
        }
      }
    }
    for (const configMap of objects.filter((object) => object.kind === 'ConfigMap')) expect(JSON.stringify(configMap.data)).not.toMatch(/postgres(ql)?:\/\/[^/@"]*:[^/@"]*@/);
  });
});

describe('the prod overlay\'s certificates', () => {
  it('issue one certificate per service identity, named as the services admit each other, into the Secret that service mounts', () => {
    const certificates = rendered.prod.filter((object) => object.kind === 'Certificate');
    expect(certificates.map((certificate) => certificate.metadata.name).sort()).toEqual([...NODE_SERVICES].sort());
    for (const certificate of certificates) {
      const service = certificate.metadata.name;
      expect(certificate.spec.commonName).toBe(service);
      expect(certificate.spec.dnsNames).toEqual([service]);
      expect(certificate.spec.secretName).toBe(`${service}-tls`);
      expect(certificate.spec.usages).toEqual(expect.arrayContaining(['server auth', 'client auth']));
      expect(objectNamed(rendered.prod, certificate.spec.issuerRef.kind ?? 'Issuer', certificate.spec.issuerRef.name).spec.ca).toBeDefined();
    }
  });
});

describe('the base', () => {
  it('holds no Secret and no value of one', () => {
    const base = renderManifests('base');
    expect(base.filter((object) => object.kind === 'Secret')).toEqual([]);
    expect(JSON.stringify(base)).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY|secretKeyRef/);
  });

  it("the dev overlay trusts the devnet's publisher, and its list at the devnet's site", () => {
    const sync = objectNamed(rendered.dev, 'Deployment', 'sync');
    const args: string[] = sync.spec.template.spec.containers[0].args;
    expect(args).toContain('-validator_list_sites=http://devnet:6006/vl.json');
    expect(args).toContain(`-validator_list_keys=${devnetNetworkKeys().publisher.master.publicKey}`);
  });
});
