// The two cone programs of one maximum-dissipation step (seed 002), built from a ContactProblem:
// phase I, the frictionless normal problem, and phase II, the frictional minimum-kinetic-energy
// problem with the budget κ. The derivations are in max_dissipation.hpp (MD1)–(MD9).
#pragma once

#include <limits>
#include <vector>

#include "contact/problem.hpp"
#include "contact/solvers/cone_program.hpp"

namespace impetus {

/// The friction set of phase II (max_dissipation.hpp MD5–MD7).
enum class FrictionCone {
  SecondOrder,   // ‖p_t‖ ≤ μ p_N, the true Coulomb cone (default)
  Pyramid,       // the k-gon inscribed in it, edges at angles 2πj/k from t1 (as stewart_trinkle)
  Viscous,       // ‖p_t‖ ≤ μ p_N + dt·μ_v‖(S v*, T v*)‖, p_N ≥ 0: the convex Coulomb + viscous set
};

/// Where each contact's and each limit's impulses sit in p.
struct ImpulseLayout {
  std::vector<int> contact_offset;   // (nc) index of p_N; p_S, p_T follow when the contact has friction; −1: not
                                     // in the program (MD16)
  std::vector<char> has_friction;    // (nc)
  std::vector<int> limit_index;      // (nl) p_L[k] = p[limit_index[k]], or 0 when −1 (no impulse)
  std::vector<int> normal_index;     // (nc) = contact_offset, for the budget
};

/// Buffers of the builders below, owned by their caller.
struct PhaseProgramScratch {
  std::vector<Eigen::Triplet<double>> J, R;   // entries of the program's 𝐉 and R
  std::vector<int> order;                     // set_from_triplets_in_place's (contact/sparse_fill.hpp)
  std::vector<int> block_of;                  // (nv) system block of each column, for (MD10)
  Eigen::VectorXd segment, solved;            // one block's row X_i and M⁻¹X_iᵀ, for (MD10)
  std::vector<double> r;                      // offsets of the velocity rows R
};

/// Phase I (MD2) in velocity form: minimise ½vᵀMv + (φ/dt)ᵀp_N + (φ_L/dt)ᵀp_L subject to
/// M v = M v* + Nᵀp_N + Lᵀp_L and 0 ≤ p ≤ ρ (ρ: `elastic_bound`, N·s, MD3).
void build_phase_one(const ContactProblem& problem, double elastic_bound, ConeProgram& program, ImpulseLayout& layout,
                     PhaseProgramScratch& scratch);

/// Phase II (MD4–MD7): minimise ½vᵀMv subject to the equation of motion, N v + φ/dt ≥ 0,
/// L v + φ_L/dt ≥ 0, 0 ≤ p_L ≤ p_L^I, the friction set `cone` per contact and Σ p_N ≤ κ.
/// `limit_budget` (nl): p_L^I, phase I's limit impulses; a limit with p_L^I = 0 keeps its velocity
/// row but gets no impulse. `edges`: the pyramid's k (≥ 3), used with FrictionCone::Pyramid only.
/// `energy_ceiling` (J): KE(v⁺_I); the velocity rows that no v⁺ with ½v⁺ᵀMv⁺ ≤ energy_ceiling can
/// violate are left out (MD10). Infinite (the default) keeps every row. `kept` (nc, or null for all): the contacts in
/// the program (MD16); the others have no impulse, no row and no share of the budget (contact_offset −1).
void build_phase_two(const ContactProblem& problem, FrictionCone cone, int edges, double kappa,
                     const Eigen::VectorXd& limit_budget, ConeProgram& program, ImpulseLayout& layout,
                     PhaseProgramScratch& scratch, double energy_ceiling = std::numeric_limits<double>::infinity(),
                     const std::vector<char>* kept = nullptr);

}  // namespace impetus
