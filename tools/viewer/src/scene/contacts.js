// Contacts of the current frame: a point per contact, the normal force on body a (along +n, which
// points from b to a) and the friction force on a (p_t1·t1 + p_t2·t2), as arrows of length
// |F|·scale with F = impulse / dt (N; impulses of contacts.csv in N·s). Penetrating contacts
// (gap φ < −tolerance) are drawn red and larger; the tolerance keeps the round-off of collision
// detection (gaps of 1e-13 m on resting unit boxes) from lighting up every resting contact.
//
// Everything is instanced with a capacity of the largest per-frame contact count, so a frame
// change only rewrites matrices.

import * as THREE from 'three';
import { tangentBasis } from '../math.js';
import { createSphereImpostorMaterial, impostorQuad } from './sphere_impostor.js';

const TOUCHING_COLOR = new THREE.Color(0xf2a516);     // within the margin, φ ≥ 0
const PENETRATING_COLOR = new THREE.Color(0xe0182d);  // φ < 0
const NORMAL_COLOR = new THREE.Color(0x1c9c4a);
const FRICTION_COLOR = new THREE.Color(0x2460d8);
const PENETRATION_SIZE = 1.8;                         // marker scale of a penetrating contact

export class ContactLayer {
  /// markerRadius (m): contact-point radius; forceScale (m/N): arrow length per newton;
  /// penetrationTolerance (m): depth beyond which a contact counts as penetrating.
  constructor(stage, run, markerRadius, forceScale, penetrationTolerance) {
    this.penetrationTolerance = penetrationTolerance;
    const scene = stage.scene;
    this.run = run;
    this.markerRadius = markerRadius;
    this.forceScale = forceScale;
    this.perImpulse = run.dt ? 1 / run.dt : 1;        // arrows show forces when dt is known
    this.show = { points: true, normal: true, friction: true };
    const capacity = Math.max(1, run.contacts.maxPerFrame);
    const impostor = createSphereImpostorMaterial(stage);
    stage.impostorMaterials.push(impostor);
    this.points = new THREE.InstancedMesh(impostorQuad(), impostor, capacity);
    // Few facets: a frame may hold thousands of arrows, and a software rasteriser pays per triangle.
    const shaft = new THREE.CylinderGeometry(1, 1, 1, 4, 1, true);
    shaft.rotateX(Math.PI / 2);
    shaft.translate(0, 0, 0.5);                         // base at the origin, along +z to z = 1
    const head = new THREE.ConeGeometry(1, 1, 6);
    head.rotateX(Math.PI / 2);
    head.translate(0, 0, -0.5);                         // tip at the origin, base at z = −1
    const material = new THREE.MeshLambertMaterial({ color: 0xffffff });
    this.shafts = new THREE.InstancedMesh(shaft, material, 2 * capacity);
    this.heads = new THREE.InstancedMesh(head, material, 2 * capacity);
    for (const mesh of [this.points, this.shafts, this.heads]) {
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false;
      mesh.count = 0;
      mesh.setColorAt(0, NORMAL_COLOR);                 // allocates instanceColor
      scene.add(mesh);
    }
    this.basis = new Float64Array(6);
    this.drawn = { points: 0, arrows: 0, penetrating: 0 };
  }

  /// Writes one arrow from (x, y, z) along unit d, of length L (m), as instance k.
  arrow(k, x, y, z, dx, dy, dz, L, color) {
    const e = this.basis;
    tangentBasis(e, dx, dy, dz);                        // (e1, e2, d) right-handed: a rotation
    const headLength = Math.min(0.45 * L, 4 * this.markerRadius);
    const headRadius = 0.4 * headLength;
    const shaftRadius = 0.3 * this.markerRadius;
    const shaftLength = L - headLength;
    const S = this.shafts.instanceMatrix.array, H = this.heads.instanceMatrix.array;
    const o = 16 * k;
    const write = (M, rxy, rz, px, py, pz) => {
      M[o] = e[0] * rxy; M[o + 1] = e[1] * rxy; M[o + 2] = e[2] * rxy; M[o + 3] = 0;
      M[o + 4] = e[3] * rxy; M[o + 5] = e[4] * rxy; M[o + 6] = e[5] * rxy; M[o + 7] = 0;
      M[o + 8] = dx * rz; M[o + 9] = dy * rz; M[o + 10] = dz * rz; M[o + 11] = 0;
      M[o + 12] = px; M[o + 13] = py; M[o + 14] = pz; M[o + 15] = 1;
    };
    write(S, shaftRadius, shaftLength, x, y, z);
    write(H, headRadius, headLength, x + dx * L, y + dy * L, z + dz * L);
    this.shafts.setColorAt(k, color);
    this.heads.setColorAt(k, color);
  }

  /// Draws the contacts of frame f.
  update(f) {
    const c = this.run.contacts;
    const begin = c.frameStart ? c.frameStart[f] : 0;
    const end = c.frameStart ? c.frameStart[f + 1] : 0;
    const P = this.points.instanceMatrix.array;
    const scale = this.forceScale * this.perImpulse;
    const minimumLength = 0.5 * this.markerRadius;      // shorter arrows are hidden inside the point
    let points = 0, arrows = 0, penetrating = 0;
    for (let i = begin; i < end; ++i) {
      const x = c.p[3 * i], y = c.p[3 * i + 1], z = c.p[3 * i + 2];
      const nx = c.n[3 * i], ny = c.n[3 * i + 1], nz = c.n[3 * i + 2];
      const inside = c.gap[i] < -this.penetrationTolerance;
      if (inside) ++penetrating;
      if (this.show.points) {
        const r = this.markerRadius * (inside ? PENETRATION_SIZE : 1);
        const o = 16 * points;
        P.fill(0, o, o + 16);
        P[o] = r; P[o + 5] = r; P[o + 10] = r; P[o + 15] = 1;
        P[o + 12] = x; P[o + 13] = y; P[o + 14] = z;
        this.points.setColorAt(points, inside ? PENETRATING_COLOR : TOUCHING_COLOR);
        ++points;
      }
      if (this.show.normal) {
        const L = Math.abs(c.impulse[3 * i]) * scale;
        const s = c.impulse[3 * i] < 0 ? -1 : 1;        // a negative (adhesive) impulse points into a
        if (L > minimumLength) this.arrow(arrows++, x, y, z, s * nx, s * ny, s * nz, L, NORMAL_COLOR);
      }
      if (this.show.friction) {
        tangentBasis(this.basis, nx, ny, nz);
        const e = this.basis, p1 = c.impulse[3 * i + 1], p2 = c.impulse[3 * i + 2];
        const fx = p1 * e[0] + p2 * e[3], fy = p1 * e[1] + p2 * e[4], fz = p1 * e[2] + p2 * e[5];
        const norm = Math.hypot(fx, fy, fz);
        const L = norm * scale;
        if (L > minimumLength) this.arrow(arrows++, x, y, z, fx / norm, fy / norm, fz / norm, L, FRICTION_COLOR);
      }
    }
    this.points.count = points;
    this.shafts.count = arrows;
    this.heads.count = arrows;
    for (const mesh of [this.points, this.shafts, this.heads]) {
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    }
    this.drawn = { points, arrows, penetrating, contacts: end - begin };
  }
}

/// Arrow scale (m/N) that draws a typical contact force (the 90th percentile of the normal forces
/// over the run) at `length` metres: big forces stay on screen, ordinary ones stay visible.
export function defaultForceScale(run, length) {
  const c = run.contacts;
  const perImpulse = run.dt ? 1 / run.dt : 1;
  const stride = Math.max(1, Math.floor(c.count / 100000));  // a sample is enough for a percentile
  const forces = [];
  for (let i = 0; i < c.count; i += stride) {
    const F = Math.abs(c.impulse[3 * i]) * perImpulse;
    if (F > 0 && Number.isFinite(F)) forces.push(F);
  }
  if (forces.length === 0) return length;             // no forces: any scale will do
  forces.sort((a, b) => a - b);
  return length / forces[Math.floor(0.9 * (forces.length - 1))];
}
