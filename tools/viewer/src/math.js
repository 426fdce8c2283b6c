// Small rigid-body helpers on plain arrays (no allocation per call: outputs are passed in).
//
// Conventions of the run files (DESIGN.md): quaternions (w, x, y, z), world frame W with z up.
// A pose is (p_WB, q_WB); a column-major 4×4 matrix is what three.js instance buffers hold.

/// out (16, column-major) = [R(q) p; 0 1] · diag(s, 1), for q = (w, x, y, z) not necessarily unit.
export function poseToMatrix(out, o, px, py, pz, qw, qx, qy, qz, sx = 1, sy = 1, sz = 1) {
  const n2 = qw * qw + qx * qx + qy * qy + qz * qz;
  const s = n2 > 0 ? 2 / n2 : 0;                     // unit-normalising R(q) = I + 2w[v]× + 2[v]×²
  const xx = qx * qx * s, yy = qy * qy * s, zz = qz * qz * s;
  const xy = qx * qy * s, xz = qx * qz * s, yz = qy * qz * s;
  const wx = qw * qx * s, wy = qw * qy * s, wz = qw * qz * s;
  out[o + 0] = (1 - yy - zz) * sx; out[o + 1] = (xy + wz) * sx;     out[o + 2] = (xz - wy) * sx;     out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;     out[o + 5] = (1 - xx - zz) * sy; out[o + 6] = (yz + wx) * sy;     out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;     out[o + 9] = (yz - wx) * sz;     out[o + 10] = (1 - xx - yy) * sz; out[o + 11] = 0;
  out[o + 12] = px; out[o + 13] = py; out[o + 14] = pz; out[o + 15] = 1;
}

/// out[o..o+16) = A[a..a+16) · B[b..b+16) for affine column-major matrices (last row 0 0 0 1).
export function multiplyAffine(out, o, A, a, B, b) {
  for (let c = 0; c < 4; ++c) {
    const b0 = B[b + 4 * c], b1 = B[b + 4 * c + 1], b2 = B[b + 4 * c + 2], b3 = B[b + 4 * c + 3];
    for (let r = 0; r < 3; ++r) {
      out[o + 4 * c + r] = A[a + r] * b0 + A[a + 4 + r] * b1 + A[a + 8 + r] * b2 + A[a + 12 + r] * b3;
    }
    out[o + 4 * c + 3] = b3;
  }
}

/// Pose at fraction s ∈ [0, 1] between two poses (7 numbers each, p then q): p by linear
/// interpolation, q by normalised linear interpolation on the shorter arc (within display accuracy
/// of slerp for the small rotations between two recorded steps).
export function interpolatePose(out, A, a, B, b, s) {
  for (let k = 0; k < 3; ++k) out[k] = A[a + k] + s * (B[b + k] - A[a + k]);
  const dot = A[a + 3] * B[b + 3] + A[a + 4] * B[b + 4] + A[a + 5] * B[b + 5] + A[a + 6] * B[b + 6];
  const sign = dot < 0 ? -1 : 1;                     // q and −q are the same rotation
  let n = 0;
  for (let k = 3; k < 7; ++k) {
    out[k] = (1 - s) * A[a + k] + s * sign * B[b + k];
    n += out[k] * out[k];
  }
  n = Math.sqrt(n);
  if (n > 0) for (let k = 3; k < 7; ++k) out[k] /= n;
}

/// Tangent directions t1, t2 of a contact with unit normal n (out: 6 numbers, t1 then t2), by the
/// rule of the contact assembly (sim/assembly.hpp, tangent_basis), so that impulse_t1 and impulse_t2
/// of contacts.csv are drawn along the directions the solver used: t1 is the world x axis projected
/// on the tangent plane (the y axis when n is within 45° of x), t2 = n × t1; (t1, t2, n) is
/// right-handed.
export function tangentBasis(out, nx, ny, nz) {
  const useY = Math.abs(nx) > Math.SQRT1_2;
  const ex = useY ? 0 : 1, ey = useY ? 1 : 0;
  const d = nx * ex + ny * ey;                       // e − n (n·e): e projected on the tangent plane
  let t1x = ex - nx * d, t1y = ey - ny * d, t1z = -nz * d;
  const l = Math.hypot(t1x, t1y, t1z) || 1;
  t1x /= l; t1y /= l; t1z /= l;
  out[0] = t1x; out[1] = t1y; out[2] = t1z;
  out[3] = ny * t1z - nz * t1y; out[4] = nz * t1x - nx * t1z; out[5] = nx * t1y - ny * t1x;
}

/// "Nice" tick step (1, 2 or 5 × 10^k) giving about `count` ticks over `span`.
export function niceStep(span, count) {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, count);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/// Index i of the last element with times[i] ≤ t (0 if t precedes all, n − 1 if after all).
export function frameAtTime(times, t) {
  let lo = 0, hi = times.length - 1;
  if (hi < 0) return 0;
  if (t <= times[0]) return 0;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid; else hi = mid;
  }
  return lo;
}
