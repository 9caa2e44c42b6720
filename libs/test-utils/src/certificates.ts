import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type forge from 'node-forge';
import { lazyPackage } from './lazy';

const forgeLibrary = lazyPackage<typeof forge>('node-forge');

/** PEM files of one certificate: its own, its key, and the CA that signed it. */
export interface CertificateFiles {
  cert: string;
  key: string;
  ca: string;
}

interface Authority {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  pem: string;
}

let serial = 1;

function keyPair(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey; privatePem: string } {
  // Node makes the key (fast); forge only builds and signs the certificates.
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return { publicKey: forgeLibrary().pki.publicKeyFromPem(publicKey), privateKey: forgeLibrary().pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey, privatePem: privateKey };
}

function certificate(commonName: string, publicKey: forge.pki.PublicKey, issuer: { cert?: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey }, extensions: object[]): forge.pki.Certificate {
  const cert = forgeLibrary().pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = (serial++).toString(16).padStart(2, '0');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer(issuer.cert ? issuer.cert.subject.attributes : [{ name: 'commonName', value: commonName }]);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forgeLibrary().md.sha256.create());
  return cert;
}

/** A certificate authority of the test's own, named `name`. */
export function testAuthority(name: string): Authority {
  const keys = keyPair();
  const cert = certificate(name, keys.publicKey, { key: keys.privateKey }, [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
  return { cert, key: keys.privateKey, pem: forgeLibrary().pki.certificateToPem(cert) };
}

/**
 * A certificate for `service` signed by `authority` (CN and DNS name = the service, as the node's
 * services expect), written as PEM files under `dir`.
 */
export function serviceCertificate(authority: Authority, service: string, dir: string): CertificateFiles {
  const keys = keyPair();
  const cert = certificate(service, keys.publicKey, authority, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: service }] },
  ]);
  const prefix = path.join(dir, `${service}-${authority.cert.subject.getField('CN').value as string}`);
  const files = { cert: `${prefix}.crt`, key: `${prefix}.key`, ca: `${prefix}.ca.crt` };
  writeFileSync(files.cert, forgeLibrary().pki.certificateToPem(cert));
  writeFileSync(files.key, keys.privatePem, { mode: 0o600 });
  writeFileSync(files.ca, authority.pem);
  return files;
}

/** The flags that give a service its certificate files. */
export function tlsFlags(files: CertificateFiles): string[] {
  return ['-grpc_tls_cert', files.cert, '-grpc_tls_key', files.key, '-grpc_tls_ca', files.ca];
}
