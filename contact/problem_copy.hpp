// Copies of a ContactProblem (or its sparse rows) into storage kept from call to call: Eigen's sparse
// assignment reallocates the outer index of an empty (0-row) matrix on every copy, so a copy that repeats
// its shape (the control stage's problem per tick, the effort limits' re-solves) would allocate in the step.
#pragma once

#include "contact/problem.hpp"

namespace impetus {

/// to = from (same entries, compressed), without reallocating when `to` has the shape and the storage.
inline void copy_rows_of(const SparseRows& from, SparseRows& to) {
  if (from.rows() == 0 && to.rows() == 0 && to.cols() == from.cols()) {
    to.setZero();
    return;
  }
  to = from;
}

/// to = from, field by field, reusing `to`'s storage where the shape repeats.
inline void copy_problem(const ContactProblem& from, ContactProblem& to) {
  to.dt = from.dt;
  to.nv = from.nv;
  to.systems = from.systems;
  to.v = from.v;
  to.v_star = from.v_star;
  to.nc = from.nc;
  copy_rows_of(from.N, to.N);
  copy_rows_of(from.S, to.S);
  copy_rows_of(from.T, to.T);
  to.phi = from.phi;
  to.mu = from.mu;
  to.mu_viscous = from.mu_viscous;
  to.keys = from.keys;
  to.touch_margin = from.touch_margin;
  to.nl = from.nl;
  copy_rows_of(from.L, to.L);
  to.phi_L = from.phi_L;
  to.p_N_guess = from.p_N_guess;
  to.p_S_guess = from.p_S_guess;
  to.p_T_guess = from.p_T_guess;
  to.p_L_guess = from.p_L_guess;
  to.extension = from.extension;
}

}  // namespace impetus
