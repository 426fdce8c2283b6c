// The 3-D stage: renderer, camera (z up, as the simulator's world frame W), lights, ground plane
// and orbit controls. Rendering happens on demand (after a change), not continuously.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { niceStep } from '../math.js';

export const BACKGROUND = 0xe9edf2;
const GROUND_COLOR = 0xd3d8de;
const GRID_COLOR = 0xa9b1bb;

export class Stage {
  constructor(canvas, { antialias = true } = {}) {
    this.canvas = canvas;
    // preserveDrawingBuffer: the page's pixels can be read back (tests, screenshots) after a frame.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias, preserveDrawingBuffer: true });
    this.basePixelRatio = Math.min(window.devicePixelRatio || 1, 2);
    this.resolutionScale = 1;
    this.renderer.setPixelRatio(this.basePixelRatio);
    this.renderer.setClearColor(BACKGROUND, 1);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.camera.up.set(0, 0, 1);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.hemisphere = new THREE.HemisphereLight(0xffffff, 0x6f7680, 1.25);
    this.hemisphere.position.set(0, 0, 1);             // sky above +z, not three.js' default +y
    this.scene.add(this.hemisphere);
    this.sun = new THREE.DirectionalLight(0xffffff, 1.5);
    this.sun.position.set(0.4, -0.6, 1.0);
    this.scene.add(this.sun);
    this.impostorMaterials = [];                      // shaders lit by hand: updated before each render
    this.ground = null;
    this.onChange = null;
    this.controls.addEventListener('change', () => this.onChange && this.onChange());
  }

  /// Ground plane {z, normal} sized to the scene's extent (m), with a grid of "nice" spacing.
  setGround(ground, center, extent) {
    if (!ground) return;
    const size = 6 * extent;
    const group = new THREE.Group();
    const plane = new THREE.Mesh(new THREE.PlaneGeometry(size, size),
      new THREE.MeshLambertMaterial({ color: GROUND_COLOR, polygonOffset: true, polygonOffsetFactor: 1,
        polygonOffsetUnits: 1 }));
    group.add(plane);
    const step = niceStep(size, 24);
    const divisions = Math.max(2, Math.round(size / step));
    const grid = new THREE.GridHelper(divisions * step, divisions, GRID_COLOR, GRID_COLOR);
    grid.rotation.x = Math.PI / 2;                    // GridHelper lies in xz; the ground is xy
    group.add(grid);
    const normal = new THREE.Vector3(...(ground.normal || [0, 0, 1])).normalize();
    group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
    // The plane z = ground.z, centred under the scene so the grid stays in view.
    group.position.set(Math.round(center.x / step) * step, Math.round(center.y / step) * step, ground.z || 0);
    this.scene.add(group);
    this.ground = group;
  }

  /// Looks at a sphere (centre, radius) from the front-right, slightly above.
  frame(center, radius) {
    const direction = new THREE.Vector3(1.0, -1.6, 0.9).normalize();
    const fov = (this.camera.fov * Math.PI) / 180;
    const distance = (1.15 * radius) / Math.sin(fov / 2);
    this.controls.target.copy(center);
    this.camera.position.copy(center).addScaledVector(direction, distance);
    this.camera.near = Math.max(1e-4, distance / 1000);
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  /// Moves the camera and its target together by delta (following a body).
  translate(delta) {
    this.camera.position.add(delta);
    this.controls.target.add(delta);
    this.controls.update();
  }

  /// Renders at a fraction of the canvas' resolution (1: full), to keep playback fluid where
  /// fragments are expensive (software rasterisers); the canvas keeps its CSS size.
  setResolutionScale(scale) {
    if (scale === this.resolutionScale) return;
    this.resolutionScale = scale;
    this.renderer.setPixelRatio(this.basePixelRatio * scale);   // reallocates the drawing buffer
  }

  resize(width, height) {
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / Math.max(1, height);
    this.camera.updateProjectionMatrix();
  }

  render() {
    this.camera.updateMatrixWorld();
    for (const material of this.impostorMaterials) material.update(this.camera);
    this.renderer.render(this.scene, this.camera);
  }

  /// Pixel coordinates (CSS px, from the canvas' top left) of a world point, or null if behind.
  project(x, y, z) {
    const v = new THREE.Vector3(x, y, z).project(this.camera);
    if (v.z > 1) return null;
    const r = this.canvas.getBoundingClientRect();
    return { x: ((v.x + 1) / 2) * r.width, y: ((1 - v.y) / 2) * r.height };
  }
}
