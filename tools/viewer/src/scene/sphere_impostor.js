// Spheres drawn as ray-cast impostors: one camera-facing quad per instance, whose fragments
// intersect the eye ray with the sphere, discard the misses and write the true depth. Two
// triangles per sphere instead of hundreds: a granular run of thousands of spheres stays fluid even
// in a browser that rasterises in software (no GPU), and spheres are exactly round at any zoom.
//
// Geometry (view space, eye at the origin): a sphere of centre c and radius r, at distance
// d = |c| > r, is seen within the cone of half-angle asin(r/d) about the direction c/d. The cone's
// cross-section through c, perpendicular to c, is a disc of radius r·d/√(d² − r²); the quad is that
// disc's square. The instance matrix gives c (its translation) and r (the length of its first
// column: instances are scaled uniformly). Shading follows the scene's lights as MeshLambertMaterial
// does (hemisphere + one directional light, Lambert BRDF = albedo/π).

import * as THREE from 'three';

const vertexShader = /* glsl */ `
varying vec3 vCenter;      // sphere centre, view space
varying float vRadius;
varying vec3 vPoint;       // this quad point, view space
varying vec3 vColor;
void main() {
  vec4 c = modelViewMatrix * instanceMatrix * vec4(0.0, 0.0, 0.0, 1.0);
  float r = length((modelViewMatrix * vec4(instanceMatrix[0].xyz, 0.0)).xyz);
  float d = length(c.xyz);
  // Inside or nearly touching the sphere no disc bounds it: then the quad is merely large.
  float half_size = d > 1.001 * r ? r * d / sqrt(d * d - r * r) : 1e3 * r;
  vec3 w = -c.xyz / max(d, 1e-12);                       // towards the eye
  vec3 u = normalize(cross(abs(w.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0), w));
  vec3 v = cross(w, u);
  vec3 p = c.xyz + half_size * (position.x * u + position.y * v);
  vCenter = c.xyz;
  vRadius = r;
  vPoint = p;
#ifdef USE_INSTANCING_COLOR
  vColor = instanceColor;
#else
  vColor = vec3(1.0);
#endif
  gl_Position = projectionMatrix * vec4(p, 1.0);
}
`;

const fragmentShader = /* glsl */ `
uniform mat4 projectionMatrix;   // declared by three.js for the vertex stage only
uniform vec3 sunDirection;   // towards the light, view space (unit)
uniform vec3 sunColor;       // colour × intensity
uniform vec3 skyColor;
uniform vec3 groundColor;
uniform vec3 upDirection;    // world +z in view space (hemisphere light axis)
varying vec3 vCenter;
varying float vRadius;
varying vec3 vPoint;
varying vec3 vColor;
void main() {
  // Eye ray x = s·e, |e| = 1; |x − c|² = r²  ⇒  s² − 2 s (e·c) + |c|² − r² = 0.
  vec3 e = normalize(vPoint);
  float b = dot(e, vCenter);
  float disc = b * b - dot(vCenter, vCenter) + vRadius * vRadius;
  if (disc < 0.0) discard;
  float s = b - sqrt(disc);                              // the nearer intersection
  if (s <= 0.0) s = b + sqrt(disc);                      // the eye inside the sphere
  vec3 x = s * e;
  vec3 n = (x - vCenter) / vRadius;
  vec4 clip = projectionMatrix * vec4(x, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;          // default depth range [0, 1]
  float up = 0.5 * dot(n, upDirection) + 0.5;
  vec3 irradiance = mix(groundColor, skyColor, up) + sunColor * max(dot(n, sunDirection), 0.0);
  gl_FragColor = vec4(vColor * irradiance * 0.3183098861837907, 1.0);   // albedo/π · E
  #include <colorspace_fragment>
}
`;

/// The impostor material; call update(camera) before rendering so lights follow the view.
export function createSphereImpostorMaterial({ sun, hemisphere }) {
  const material = new THREE.ShaderMaterial({
    vertexShader,
    fragmentShader,
    uniforms: {
      sunDirection: { value: new THREE.Vector3(0, 0, 1) },
      sunColor: { value: sun.color.clone().multiplyScalar(sun.intensity) },
      skyColor: { value: hemisphere.color.clone().multiplyScalar(hemisphere.intensity) },
      groundColor: { value: hemisphere.groundColor.clone().multiplyScalar(hemisphere.intensity) },
      upDirection: { value: new THREE.Vector3(0, 0, 1) },
    },
  });
  const direction = new THREE.Vector3();
  material.update = (camera) => {
    const view = camera.matrixWorldInverse;
    direction.copy(sun.position).sub(sun.target.position).normalize().transformDirection(view);
    material.uniforms.sunDirection.value.copy(direction);
    material.uniforms.upDirection.value.set(0, 0, 1).transformDirection(view);
  };
  return material;
}

/// The quad every impostor instance draws: corners (±1, ±1), expanded in the vertex shader.
export function impostorQuad() {
  return new THREE.PlaneGeometry(2, 2);
}
