// Certificates per worker and skill. A renewal is a new certificate; the old one stays on file
// until its validity ends. Revoking one (a failed medical, an incident) takes effect at once.

import { ConflictError } from "../../core/errors.js";
import { EVENTS } from "../events.js";
import { newCertificate } from "../records/certificate.js";

export function createCertificateRegistry({ ctx, stores, workers }) {
  const { certificates, ids } = stores;

  function addCertificate(input) {
    const worker = workers.getWorker(input?.workerId);
    const record = newCertificate(input, ids.certificates.next());
    if (!worker.skills.includes(record.skill)) throw new ConflictError(`${worker.id} is not registered for ${record.skill}`);
    const clash = certificates.list((c) => c.number === record.number)[0];
    if (clash) throw new ConflictError(`certificate ${record.number} already on file`);
    const cert = certificates.insert(record);
    ctx.events.publish(EVENTS.certificateAdded, { certificateId: cert.id, workerId: worker.id });
    return cert;
  }

  function revokeCertificate(id) {
    const cert = certificates.update(id, (c) => ({ ...c, revoked: true }));
    ctx.events.publish(EVENTS.certificateRevoked, { certificateId: id, workerId: cert.workerId });
    return cert;
  }

  /** A worker's certificates, in id order. */
  const certificatesOf = (workerId) => certificates.list((c) => c.workerId === workerId);

  return { addCertificate, revokeCertificate, certificatesOf, findCertificate: (id) => certificates.find(id) };
}
