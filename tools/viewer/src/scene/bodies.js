// The bodies: one InstancedMesh per shape kind (and per distinct mesh), so that a frame of a
// 1000-body run is a handful of draw calls and one pass over the instance matrices.
//
// An instance is one shape of one body: its world matrix is X_WB(t) · X_BG · diag(size), where
// X_BG (the shape's pose on its body, geometry.json) and the size scaling are fixed and kept in
// `local`, and X_WB(t) comes from trajectory.csv. A capsule is a cylinder instance plus two sphere
// instances at ±length/2 on its axis, so it stays instanced too.

import * as THREE from 'three';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';
import { multiplyAffine, poseToMatrix } from '../math.js';
import { createSphereImpostorMaterial, impostorQuad } from './sphere_impostor.js';

const STATIC_COLOR = new THREE.Color(0x9aa1a9);
const MARKER_COLOR = new THREE.Color(0x55606b);
const HIGHLIGHT_COLOR = new THREE.Color(0xffb000);
const ROUND_TRIANGLE_BUDGET = 100000;                 // triangles for all cylinders together
const MIN_DETAIL = 4;                                 // a cylinder of 8 facets still reads as round
const MAX_DETAIL = 16;

/// Body colour: evenly spread hues (golden-ratio steps), so neighbours in a stack differ.
function bodyColor(index) {
  const hue = (0.58 + index * 0.618033988749895) % 1;
  return new THREE.Color().setHSL(hue, 0.55, 0.55);
}

function unitGeometry(kind, detail) {
  switch (kind) {
    case 'box': return new THREE.BoxGeometry(1, 1, 1);
    case 'sphere': return impostorQuad();
    case 'cylinder': {
      const g = new THREE.CylinderGeometry(1, 1, 1, detail * 2);
      g.rotateX(Math.PI / 2);                           // three.js cylinders run along y; ours along z
      return g;
    }
    default: throw new Error(`no unit geometry for ${kind}`);
  }
}

function meshGeometry(shape) {
  const vertices = shape.vertices || [];
  const triangles = shape.triangles || [];
  if (triangles.length === 0) {
    // A convex shape given by its points only: draw the hull.
    if (vertices.length < 4) return null;
    return new ConvexGeometry(vertices.map((v) => new THREE.Vector3(v[0], v[1], v[2])));
  }
  const position = new Float32Array(triangles.length * 9);
  let k = 0;
  for (const tri of triangles) {
    for (const i of tri) {
      const v = vertices[i];
      if (!v) return null;
      position[k++] = v[0]; position[k++] = v[1]; position[k++] = v[2];
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(position, 3));
  g.computeVertexNormals();                             // flat: vertices are not shared
  return g;
}

/// A key identifying equal meshes (same vertices and triangles), to share one InstancedMesh.
function meshKey(shape) {
  let h = 2166136261;                                   // FNV-1a over the numbers' text
  const mix = (s) => { for (let i = 0; i < s.length; ++i) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } };
  for (const v of shape.vertices || []) mix(`${v[0]},${v[1]},${v[2]};`);
  for (const t of shape.triangles || []) mix(`${t[0]},${t[1]},${t[2]};`);
  return `${(shape.vertices || []).length}/${(shape.triangles || []).length}/${h >>> 0}`;
}

/// Radius of the sphere about the body origin that holds the shape (m).
function shapeReach(shape) {
  const p = (shape.pose && shape.pose.p) || [0, 0, 0];
  const d = Math.hypot(p[0], p[1], p[2]);
  switch (shape.kind) {
    case 'box': return d + 0.5 * Math.hypot(...shape.size);
    case 'sphere': return d + shape.radius;
    case 'cylinder': return d + Math.hypot(shape.radius, 0.5 * shape.length);
    case 'capsule': return d + shape.radius + 0.5 * shape.length;
    case 'mesh': return d + Math.max(0, ...(shape.vertices || []).map((v) => Math.hypot(v[0], v[1], v[2])));
    default: return d;
  }
}

export class BodyLayer {
  /// Collects the instances of every body's shapes; problems are appended to warnings.
  constructor(scene, run, warnings) {
    this.run = run;
    const B = run.bodies.length;
    this.reach = new Float64Array(B);                   // m, per body
    this.isStatic = new Uint8Array(B);
    this.shapesPerBody = new Int32Array(B);
    this.colors = run.bodies.map((b) => bodyColor(b.index));
    this.groups = new Map();                            // key → {kind, shape?, body: [], local: []}
    this.highlighted = -1;
    this.bodyMatrices = new Float32Array(16 * B);
    this.scratch = new Float32Array(16);

    const byId = new Map();
    const geometryBodies = (run.geometry && run.geometry.bodies) || [];
    for (const g of geometryBodies) byId.set(g.id, g);
    const missing = [];
    const unknownKinds = new Set();
    for (const body of run.bodies) {
      const g = byId.get(body.id);
      if (!g) { missing.push(body.id); continue; }
      this.isStatic[body.index] = g.static ? 1 : 0;
      if (g.static) this.colors[body.index] = STATIC_COLOR.clone();
      for (const shape of g.shapes || []) {
        if (!this.addShape(body.index, shape)) unknownKinds.add(shape.kind);
        this.reach[body.index] = Math.max(this.reach[body.index], shapeReach(shape));
      }
      byId.delete(body.id);
    }
    if (missing.length && run.geometry) {
      warnings.push(`geometry.json has no entry for ${missing.length} body(ies), e.g. "${missing[0]}": drawn as markers`);
    }
    if (byId.size) warnings.push(`geometry.json lists ${byId.size} body(ies) not in trajectory.csv (not drawn)`);
    if (unknownKinds.size) warnings.push(`unknown shape kind(s): ${[...unknownKinds].join(', ')}`);
    this.markerBodies = run.bodies.filter((b) => this.shapesPerBody[b.index] === 0).map((b) => b.index);
    this.scene = scene;
  }

  group(key, kind, shape) {
    if (!this.groups.has(key)) this.groups.set(key, { kind, shape, body: [], local: [] });
    return this.groups.get(key);
  }

  /// Adds the instances of one shape; false for a kind this viewer does not know.
  addShape(bodyIndex, shape) {
    const p = (shape.pose && shape.pose.p) || [0, 0, 0];
    const q = (shape.pose && shape.pose.q) || [1, 0, 0, 0];
    const local = (sx, sy, sz, dz = 0) => {
      // X_BG · T(0, 0, dz) · diag(s): dz places a capsule's caps along the shape's z axis.
      const m = new Float32Array(16);
      poseToMatrix(m, 0, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
      for (let r = 0; r < 3; ++r) {
        m[12 + r] += m[8 + r] * dz;
        m[r] *= sx; m[4 + r] *= sy; m[8 + r] *= sz;
      }
      return m;
    };
    const add = (key, kind, m, meshShape) => {
      ++this.shapesPerBody[bodyIndex];
      const g = this.group(key, kind, meshShape);
      g.body.push(bodyIndex);
      g.local.push(m);
    };
    switch (shape.kind) {
      case 'box': add('box', 'box', local(shape.size[0], shape.size[1], shape.size[2])); return true;
      case 'sphere': add('sphere', 'sphere', local(shape.radius, shape.radius, shape.radius)); return true;
      case 'cylinder': add('cylinder', 'cylinder', local(shape.radius, shape.radius, shape.length)); return true;
      case 'capsule': {
        const r = shape.radius, h = 0.5 * shape.length;
        add('cylinder', 'cylinder', local(r, r, shape.length));
        add('sphere', 'sphere', local(r, r, r, h));
        add('sphere', 'sphere', local(r, r, r, -h));
        return true;
      }
      case 'mesh': add(`mesh:${meshKey(shape)}`, 'mesh', local(1, 1, 1), shape); return true;
      default: return false;
    }
  }

  /// Creates the InstancedMeshes; markerRadius (m) sizes the marker of a body without shapes.
  /// stage: for the lights the sphere impostors shade with.
  build(markerRadius, stage) {
    for (const index of this.markerBodies) {
      const g = this.group('marker', 'sphere', null);
      g.body.push(index);
      const m = new Float32Array(16);
      poseToMatrix(m, 0, 0, 0, 0, 1, 0, 0, 0, markerRadius, markerRadius, markerRadius);
      g.local.push(m);
    }
    let instances = 0;
    for (const g of this.groups.values()) instances += g.body.length;
    // Facets per cylinder from a triangle budget: a software rasteriser (a browser without GPU)
    // pays per triangle, and a cylinder of 2d facets costs 8d triangles (sides and caps). Spheres
    // are impostors: two triangles each.
    let round = 0;
    for (const g of this.groups.values()) if (g.kind === 'cylinder') round += g.body.length;
    const detail = Math.round(Math.min(MAX_DETAIL, Math.max(MIN_DETAIL, ROUND_TRIANGLE_BUDGET / (8 * Math.max(1, round)))));
    const impostor = createSphereImpostorMaterial(stage);
    stage.impostorMaterials.push(impostor);
    this.meshes = [];
    for (const [key, g] of this.groups) {
      const geometry = g.kind === 'mesh' ? meshGeometry(g.shape) : unitGeometry(g.kind, detail);
      if (!geometry) continue;
      const material = g.kind === 'sphere' ? impostor
        : new THREE.MeshLambertMaterial({ color: 0xffffff, flatShading: g.kind === 'mesh' });
      const mesh = new THREE.InstancedMesh(geometry, material, g.body.length);
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false;                         // instances move; bounds would go stale
      g.localAll = new Float32Array(16 * g.body.length);
      g.body.forEach((b, i) => g.localAll.set(g.local[i], 16 * i));
      g.bodyAll = Int32Array.from(g.body);
      g.mesh = mesh;
      for (let i = 0; i < g.body.length; ++i) {
        mesh.setColorAt(i, key === 'marker' ? MARKER_COLOR : this.colors[g.body[i]]);
      }
      mesh.instanceColor.needsUpdate = true;
      this.scene.add(mesh);
      this.meshes.push(mesh);
    }
    this.instanceCount = instances;
  }

  /// Instance matrices for body poses (B·7: p, q per body).
  update(poses) {
    const M = this.bodyMatrices;
    const B = this.run.bodies.length;
    for (let b = 0; b < B; ++b) {
      const o = 7 * b;
      poseToMatrix(M, 16 * b, poses[o], poses[o + 1], poses[o + 2], poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
    }
    for (const g of this.groups.values()) {
      if (!g.mesh) continue;
      const out = g.mesh.instanceMatrix.array;
      for (let i = 0; i < g.bodyAll.length; ++i) multiplyAffine(out, 16 * i, M, 16 * g.bodyAll[i], g.localAll, 16 * i);
      g.mesh.instanceMatrix.needsUpdate = true;
    }
  }

  /// Marks one body (the followed one) in the highlight colour; −1 for none.
  highlight(bodyIndex) {
    if (bodyIndex === this.highlighted) return;
    const previous = this.highlighted;
    this.highlighted = bodyIndex;
    for (const [key, g] of this.groups) {
      if (!g.mesh || key === 'marker') continue;
      let changed = false;
      for (let i = 0; i < g.bodyAll.length; ++i) {
        const b = g.bodyAll[i];
        if (b === bodyIndex) { g.mesh.setColorAt(i, HIGHLIGHT_COLOR); changed = true; }
        else if (b === previous) { g.mesh.setColorAt(i, this.colors[b]); changed = true; }
      }
      if (changed) g.mesh.instanceColor.needsUpdate = true;
    }
  }

  setVisible(visible) { for (const mesh of this.meshes) mesh.visible = visible; }

  /// Instance counts per group, for the page's state.
  counts() {
    const out = {};
    for (const [key, g] of this.groups) out[key.startsWith('mesh:') ? 'mesh' : key] = (out[key.startsWith('mesh:') ? 'mesh' : key] || 0) + g.body.length;
    return out;
  }
}
