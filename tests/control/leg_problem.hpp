// The analytic leg of the inverse-dynamics tests (test_inverse_dynamics.cpp has the derivation): a body on a
// leg of actuated length standing on the ground, v = [x, y, z, ℓ], P = e₃ᵀ; and each ID variant with its twin
// forward contact model.
//   M = [[m, 0, 0, 0], [0, m, 0, 0], [0, 0, m, −m_f], [0, 0, −m_f, m_f]],   h = [0, 0, m g, −m_f g],
//   N = [0, 0, 1, −1] (the foot's height rate),  S = [1, 0, 0, 0],  T = [0, 1, 0, 0].
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contact/factory.hpp"
#include "control/inverse_dynamics/id_lcp_coulomb.hpp"
#include "control/inverse_dynamics/id_lcp_noslip.hpp"
#include "control/inverse_dynamics/id_qp.hpp"

namespace impetus::test_leg {

constexpr double kG = 9.81, kDt = 1e-3, kBodyMass = 4.0, kFootMass = 0.5;
// Analytic answers are met to the solvers' certificates: Lemke's ρ ≤ 1e-6 (relative, lemke.hpp L6) and
// principal pivoting's 1e-9; impulses here are ~0.05 N·s, velocities ≤ 1 m/s. 1e-6 of the impulse scale
// (N·s) and of the velocity scale (m/s) bounds what a certified solution can differ by.
constexpr double kImpulseTolerance = 1e-6 * 0.05;
constexpr double kVelocityTolerance = 1e-6;

struct LegProblem {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(4, 4);
  Eigen::LLT<Eigen::MatrixXd> M_llt;
  ContactProblem problem;
  InverseDynamicsProblem id;

  LegProblem(double vx, double mu, double phi = 0) {
    const double m = kBodyMass + kFootMass;
    M.diagonal() << m, m, m, kFootMass;
    M(2, 3) = M(3, 2) = -kFootMass;
    M_llt.compute(M);
    ContactProblem& p = problem;
    p.dt = kDt;
    p.nv = 4;
    p.systems = {SystemBlock{0, 4, &M, &M_llt}};
    p.v = Eigen::Vector4d(vx, 0, 0, 0);
    const Eigen::Vector4d h(0, 0, m * kG, -kFootMass * kG);
    p.v_star = p.v - kDt * M_llt.solve(h);
    p.nc = 1;
    p.N.resize(1, 4);
    p.S.resize(1, 4);
    p.T.resize(1, 4);
    p.N.insert(0, 2) = 1;
    p.N.insert(0, 3) = -1;
    p.S.insert(0, 0) = 1;
    p.T.insert(0, 1) = 1;
    p.phi = Eigen::VectorXd::Constant(1, phi);
    p.mu = Eigen::VectorXd::Constant(1, mu);
    p.mu_viscous = Eigen::VectorXd::Zero(1);
    p.keys = {ContactKey{0, -1, 0}};
    p.L.resize(0, 4);
    p.p_N_guess = p.p_S_guess = p.p_T_guess = Eigen::VectorXd::Zero(1);
    id.contact = &problem;
    id.actuated = {3};
    id.qd_des = Eigen::VectorXd::Zero(1);
  }

  /// The forward step with τ applied: v* + M⁻¹Pᵀτ.
  ContactResult forward(const std::string& model, const ModelOptions& options, const Eigen::VectorXd& tau) const {
    ContactProblem applied = problem;
    Eigen::Vector4d e = Eigen::Vector4d::Zero();
    e[3] = tau[0];
    applied.v_star += M_llt.solve(e);
    ContactResult result;
    make_contact_model(model, options)->solve(applied, result);
    return result;
  }
};

struct Twin {
  std::string controller;
  std::function<std::unique_ptr<InverseDynamicsSolver>()> make;
  std::string model;
  ModelOptions options;
  bool coulomb;   // a finite-μ variant (slides); else no-slip
};

inline std::vector<Twin> twins() {
  return {
      {"id_lcp_noslip", [] { return std::make_unique<IdLcpNoSlip>(); }, "no_slip", {}, false},
      {"id_lcp_coulomb", [] { return std::make_unique<IdLcpCoulomb>(); }, "stewart_trinkle", {}, true},
      {"id_qp_coulomb", [] { return std::make_unique<IdQp>(); }, "max_dissipation", {{"friction", "pyramid"}}, true},
      {"id_qp_noslip",
       [] {
         IdQpOptions o;
         o.unbounded_friction = true;
         return std::make_unique<IdQp>(o);
       },
       "max_dissipation", {{"friction", "pyramid"}}, false},
      // k = 8: edges without exact zeros, where id_qp's products with B are not the dense ones to the bit.
      {"id_qp_coulomb_k8",
       [] {
         IdQpOptions o;
         o.friction_edges = 8;
         return std::make_unique<IdQp>(o);
       },
       "max_dissipation", {{"friction", "pyramid"}, {"friction_edges", "8"}}, true},
  };
}

}  // namespace impetus::test_leg
