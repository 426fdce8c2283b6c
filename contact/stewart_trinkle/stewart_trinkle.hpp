// Stewart–Trinkle / Anitescu–Potra: the velocity-level LCP with a friction pyramid, solved by Lemke.
//
// References
//   [ST]  Stewart & Trinkle, "An implicit time-stepping scheme for rigid body dynamics with inelastic
//         collisions and Coulomb friction", IJNME 39 (1996) 2673–2691.
//   [AP]  Anitescu & Potra, "Formulating dynamic multi-rigid-body contact problems with friction as
//         solvable linear complementarity problems", Nonlinear Dynamics 14 (1997) 231–247.
//   [001] Tan, Siu & Liu, "Contact handling for articulated rigid bodies using LCP" (seed 001),
//         Eqs. (9)–(15); notes: shared/notes/seed-001-notes.md.
//   [004] Zapolsky & Drumwright, "Inverse dynamics with rigid contact and friction" (seed 004),
//         Eqs. (36), (52)–(53), (59)–(68); notes §1.5.
//
// Glossary (contact/problem.hpp has the shared notation)
//   symbol  size        meaning                                             code
//   ------  ----------  --------------------------------------------------  -------------------------
//   k       1           edges of the friction pyramid (even, ≥ 4)            friction_edges
//   d_j     3           edge j: cos(2πj/k)·t1 + sin(2πj/k)·t2                 lcp.cos_edge, lcp.sin_edge
//   F       k·nf×nv     friction rows, F_{f,j} = cos_j S_g + sin_j T_g         (never formed)
//   p_F     k·nf        impulses along the edges, ≥ 0                         z.segment(lcp.offset_F)
//   E       k·nf×nf     block diagonal of ones-vectors 1_k                   (implicit)
//   λ       nf          ≈ the sliding speed of each friction contact (m/s)    a·z.segment(lcp.offset_lambda)
//   U, b    nu×nv, nu   the unilateral rows [N; L] and their gaps [φ; φ_L]/dt
//   W       nv×nv       M⁻¹ (applied block by block, never formed)
//   a       1           balancing scale of λ, mean diag(N W Nᵀ)  (1/kg)      lcp.balance
//   ng                  contact groups (ST9); nf: groups with μ > 0, the only ones with friction rows
//
// Model (one step, every unknown an impulse over dt; M, N, S, T, L, φ frozen at the start of the step)
//   M v⁺ = M v* + Nᵀ p_N + Lᵀ p_L + Fᵀ p_F                                                    (ST1)
//   0 ≤ p_N ⊥ N v⁺ + φ/dt   ≥ 0          non-penetration with the gap, [004] (36)              (ST2)
//   0 ≤ p_L ⊥ L v⁺ + φ_L/dt ≥ 0          joint limits: unilateral, frictionless                (ST3)
//   0 ≤ p_F ⊥ F v⁺ + E λ    ≥ 0          friction opposes the slip, [004] (52), [001] expr. 4–6  (ST4)
//   0 ≤ λ   ⊥ μ p_N − Eᵀ p_F ≥ 0         the pyramid, [004] (53), [001] expr. 7–9               (ST5)
//
//   Pyramid: the friction impulse Σ_j p_Fj d_j with Σ_j p_Fj ≤ μ p_N (ST5) fills the convex hull of
//   {0, μ p_N d_j}, a k-gon whose vertices lie on the Coulomb circle of radius μ p_N: it is inscribed in
//   the cone and touches it along the edges. For k = 4 the edges are t1, t2, −t1, −t2 (the rows are
//   [S; T; −S; −T], the F = [S; −S; T; −T] of the papers in another order) and |p_S| + |p_T| ≤ μ p_N.
//   A contact sliding along an edge direction loses exactly μ p_N of tangential impulse; between two
//   edges it gets the edge most opposed to the slip ([001] §8), so the friction need not be
//   collinear with the slip.
//
//   Eliminating v⁺ = v* + W (Uᵀ p_U + Fᵀ p_F) (ST1) gives LCP(q, A) in z = [p_N; p_L; p_F; λ̂]:
//
//        ⎡ U W Uᵀ   U W Fᵀ   0  ⎤        ⎡ U v* + b ⎤
//   A =  ⎢ F W Uᵀ   F W Fᵀ   aE ⎥,  q =  ⎢ F v*     ⎥,   λ = a λ̂                              (ST6)
//        ⎣ a μ̄     −a Eᵀ     0  ⎦        ⎣ 0        ⎦
//
//   μ̄ (nf×nu) picks μ_c in the column of contact c's normal row (zero for the L rows). The blocks
//   U W Uᵀ, U W Fᵀ, F W Fᵀ are read off the Delassus matrix D = J W Jᵀ of J = [N; L; S; T]
//   (ContactProblem::delassus), F's rows being combinations of S and T; A is copositive, with a
//   singular PSD upper block whenever rows are redundant, and a zero diagonal in the λ rows.
//
//   Balancing (ST7): λ has units of velocity and E, μ are dimensionless while W ~ 1/kg, so the λ
//   column and row would be off by the mass scale. With λ = a λ̂ and the λ rows multiplied by a —
//   the symmetric diagonal scaling D_a A D_a, which maps solutions to solutions — every block of A is
//   in 1/kg. It plays the role of [001] §5's "multiply E and μ by Δt" in this impulse form.
//
//   Redundant contacts (ST9): contacts whose N, S, T rows coincide within merge_tolerance (relative)
//   and whose μ are equal — duplicated manifold points, several geometries touching at one spot —
//   form one group, entered once with the smallest gap of its members, φ_g = min φ_c. The group's
//   impulse goes in equal shares to its members at that gap: they then meet (ST2)–(ST5) like the
//   group, and the others keep p = 0 with N v⁺ + φ_c/dt ≥ N v⁺ + φ_g/dt ≥ 0. For exact duplicates
//   this is the same v⁺ as solving them all; near-duplicates (rows equal to 1e-7 … 1e-9) make a
//   Delassus matrix singular only up to roundoff, where pivoting is unreliable.
//
//   Solved with LemkeSolver (contact/solvers/lemke.hpp): lexicographic pivoting, the certificate
//   (L6) on (ST6), and Tikhonov retries A + εI (L7) checked against the unregularised A. Status:
//   Solved when the plain attempt meets the certificate; Fallback when a regularised retry does
//   (SolverStatistics::regularization = ε / max|A_ii|, attempts > 1); Failed otherwise, with v⁺
//   from the iterate of smallest residual (z = 0 included), always finite for finite input. Then
//       p_S = Σ_j cos_j p_Fj,   p_T = Σ_j sin_j p_Fj,                                         (ST8)
//       v⁺ = v* + W (Nᵀ p_N + Sᵀ p_S + Tᵀ p_T + Lᵀ p_L).
//
// Properties the tests check: with φ ≥ 0 and φ_L ≥ 0 the step never adds kinetic energy, since
// (Δv = v⁺ − v*, M Δv = Nᵀp_N + Lᵀp_L + Fᵀp_F)
//   ½v⁺ᵀMv⁺ − ½v*ᵀMv* = −½ΔvᵀMΔv + p_Nᵀ N v⁺ + p_Lᵀ L v⁺ + p_Fᵀ F v⁺
//                     = −½ΔvᵀMΔv − p_Nᵀφ/dt − p_Lᵀφ_L/dt − λᵀ μ p_N ≤ 0
// by (ST2)–(ST5); a resting body gets Σ p_N = m g dt; sliding along an edge loses μ g dt per step.
//
// Errata of the sources, and how this derivation settles them
//   • [004] (64) as printed puts E in the p_N row and swaps the blocks of the last row; the layout
//     above follows the MLCP (59) it comes from (notes 004 §2.3, §1.5).
//   • [004] flips the signs of τ (Eqs. 37/58/73 vs 8/42/50) and of κ (42 vs 59/64/79). Here τ is
//     already inside v* (the stepper's stage 4), and (ST1) has every impulse on the right with +.
//   • [004] (17) and (32) print the cone as μ² f_N ≥ f_S² + f_T² and μ² f_n ≥ f_s + f_t: typos; the
//     linear pyramid (ST5) is 1ᵀp_F ≤ μ p_N, [004] (72).
//   • [001] writes forces (f = p/Δt, with Δt in front of N and B) and N, B as nv×nc columns (Nᵀq̇);
//     here the unknowns are impulses and N, S, T are rows (N v), so no Δt appears in A.
//   • [001] has no gap term (N v⁺ ≥ 0 only) and no joint limits; (ST2) takes [004] (36), and (ST3)
//     adds the limits as frictionless unilateral rows.
//   • [001] §5 says "add" but writes A_ii ← (1+ε)A_ii, which never touches the zero λ diagonal; the
//     retries here add εI to every diagonal entry, λ rows included (ODE's CFM is additive too).
//   • [001] §8 leaves μ = 0 degenerate (λ free in a range); contacts with μ ≤ 0 carry no friction
//     rows at all, so p_S = p_T = 0 exactly.
//
// One contact: an island of one contact and no joint limit is solved first by enumeration of its active
// sets on the 3×3 Delassus matrix (single_contact.hpp, SS1–SS5), before the grouping and the LCP's products;
// the answer is kept only when it meets the certificate (L6) on (ST6) at the model's tolerance (Solved, no
// pivot counted), otherwise the island takes the path below unchanged.
//
// Free motion: an island without a guess (the previous step left its contacts without impulse) whose v* already
// separates every row (contact/free_motion.hpp FM1: N v* + φ/dt ≥ 0, L v* + φ_L/dt ≥ 0 as computed) is answered by
// p = 0, v⁺ = v* before the grouping: z = 0 with λ_g = max(0, max_j −d_jᵀv*) per group meets (ST6) exactly
// (μ p_N − eᵀβ = 0), as the sparse path's certified separating stage finds it (sparse_newton.hpp), and no other
// answer is looked for: a falling pile's thousands of speculative contacts, in one pass over their rows.
//
// Warm starts: Lemke's pivoting is never started from an old basis ([004] §5.3: that costs more
// pivots than a cold start). Instead the active set of the guesses p_*_guess is tried first, and kept
// only when it solves the LCP to the certificate (warm_start.hpp, ST10). When it does not, Lemke runs
// on the groups that can carry an impulse and the others are checked against (ST2) afterwards, joining
// when pushed in (approaching_groups.hpp, ST11): exact, and the certificate is the whole problem's.
//
// A work budget, never a hang (ST12): the dense methods take LCPs up to max_lemke_size unknowns, and all
// the Lemke attempts of one island share pivot_budget pivots. An island above the size, or whose budget is
// spent with no certified answer, is solved by max_dissipation instead (contact/max_dissipation: the
// maximum-dissipation principle on the Coulomb cone, an interior point with no pivoting, which finishes on
// piles of a thousand bodies): status Fallback, counted, its message saying which limit was hit and how
// max_dissipation's own solve ended. Its v⁺ is not an answer of (ST6) (the cone, not the pyramid) but of
// the same impulse-velocity step with the same gaps, so non-penetration (ST2) and (ST3) still hold.
// Before that fallback an LCP above the size is solved sparse (sparse_newton.hpp, ST13), and kept when it
// meets the same certificate: then it is Solved, an exact answer of (ST6) like Lemke's.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "contact/contact_model.hpp"
#include "contact/rows_by_count.hpp"
#include "contact/solvers/grow_only.hpp"
#include "contact/solvers/lemke.hpp"

namespace impetus {

/// Options of `stewart_trinkle`, the attributes of <physics><stewart_trinkle …/>.
struct StewartTrinkleOptions {
  /// k, the edges of the friction pyramid inscribed in the Coulomb cone. Default 4; even, 4 … 64.
  /// More edges round the pyramid (at k = 4 a slip at 45° to t1 meets 1/√2 of the Coulomb
  /// friction) at k + 1 LCP unknowns per contact.
  int friction_edges = 4;
  /// Pivot cap of each Lemke attempt. 0: automatic, 20·n + 100 for n LCP unknowns. Range ≥ 0.
  int max_pivots = 0;
  /// Accept an LCP solution when its certificate residual ρ (lemke.hpp L6) is ≤ this.
  /// Dimensionless (a relative velocity / impulse error). Default 1e-6; range 1e-14 … 1e-2.
  double tolerance = 1e-6;
  /// Tikhonov retries after a failed plain solve: A + εI with ε = ε_rel·max|A_ii|, ε_rel from
  /// regularization_min to regularization_max by factors regularization_growth.
  /// Defaults 1e-10, 1e-7, 10 (four retries); ranges 0 … 1e-2, 0 … 1e-2 (0 disables the retries;
  /// keep it below `tolerance`, or the retries cannot pass the certificate), 1.5 … 1e6.
  double regularization_min = 1e-10;
  double regularization_max = 1e-7;
  double regularization_growth = 10;
  /// Contacts whose N, S, T rows agree within this (relative to the rows' largest entry) and whose
  /// μ are equal are solved as one (ST9). Default 1e-6: on a 1 m body, points within ~1 µm, far
  /// below the O(dt) error of the scheme, where the LCP would be singular up to roundoff. Range
  /// 0 … 1e-3; 0 disables merging (exact duplicates are still solved right, by Lemke).
  double merge_tolerance = 1e-6;
  /// Try the previous step's active set before Lemke (warm_start.hpp, ST10), or always Lemke.
  /// Default true; the scene writes true/false or 1/0. Either way the answer meets the certificate
  /// at `tolerance`.
  bool warm_start = true;
  /// Largest LCP (ST6), in unknowns n, that the dense methods take (Lemke, ST10's factorization): their
  /// n×n matrices and O(n³) work. A larger island goes to the fallback (ST12). Default 2000 (≈ 330 contacts
  /// at k = 4; Lemke's four n×n buffers 128 MB); range 1 … 10⁶.
  int max_lemke_size = 2000;
  /// Work budget of one island solve: Lemke pivots summed over the rounds of (ST11), the whole LCP and the
  /// Tikhonov retries. Spent without a certified answer: the fallback (ST12). 0: automatic, 100·n + 500
  /// for n unknowns of the whole LCP (five attempts at the automatic cap 20·n + 100 of one). Range ≥ 0.
  int pivot_budget = 0;
  /// Newton steps of the sparse method (ST13) that solves an LCP above max_lemke_size, each a sparse LU of
  /// the Newton matrix: its work budget. Not certified within it: the fallback (ST12). Default 30; range
  /// 0 … 10⁴ (0: no sparse method, every large island falls back).
  int sparse_iterations = 30;
  /// Largest LCP, in unknowns, on which (ST13) goes on to its stage 2 (semismooth Newton, each step a sparse LU
  /// of the whole n×n Newton matrix); above it only stage 1 (active sets, LUs of the basis) runs before the
  /// fallback. Default 5000: stage 2 certified half the problems it was entered on in granular_small (≤ 500
  /// unknowns) and none on granular's landing and rest (13 900–21 300 unknowns; 0.7–2.5 s CPU a step there,
  /// 8–22 s before a fallback of 1–2 s); between these sizes unmeasured. Range 0 … 10⁶.
  int newton_size = 5000;

  // For programs (benchmarks, tests), not a scene attribute:
  /// An island of one contact and no joint limit is solved by enumeration on its 3×3 Delassus matrix
  /// (single_contact.hpp), kept only when it meets the certificate at `tolerance`; false sends it to the
  /// general path like every other island (tests compare the two).
  bool single_contact_closed_form = true;
  /// An island without a guess whose v* separates every row takes p = 0 before the grouping (free motion,
  /// above); false sends it to the general path (tests compare the two).
  bool free_motion = true;

  /// From the scene's attributes; throws OptionError for an unknown option or a bad value.
  static StewartTrinkleOptions parse(const ModelOptions& options);
  LemkeOptions lemke() const;
};

/// The LCP (ST6) of one ContactProblem over its contact groups (ST9), and the buffers that build it
/// (reused between calls, grow-only: contact/solvers/grow_only.hpp).
struct StewartTrinkleLcp {
  StewartTrinkleLcp() = default;
  StewartTrinkleLcp(const StewartTrinkleLcp&) = delete;   // its views point into its own storage
  StewartTrinkleLcp& operator=(const StewartTrinkleLcp&) = delete;

  int nc = 0, ng = 0, nl = 0, nf = 0, k = 0;   // contacts, groups, limits, friction groups, edges
  int offset_L = 0, offset_F = 0, offset_lambda = 0, size = 0;   // blocks of z: [p_N (ng); p_L; p_F; λ̂]
  double balance = 1;                      // a of (ST7), 1/kg

  /// The blocks of z from ng, nl, nf and k.
  void lay_out_blocks() {
    offset_L = ng;
    offset_F = ng + nl;
    offset_lambda = offset_F + k * nf;
    size = offset_lambda + nf;
  }

  // --- (ST9) contact groups ---
  std::vector<int> leader;                 // (ng) the contact whose rows stand for group g
  std::vector<int> group;                  // (nc) the group of each contact
  std::vector<int> members;                // (ng) members at the group's smallest gap
  std::vector<double> share;               // (nc) share of its group's impulse: 1/members or 0
  VectorView phi{nullptr, 0};              // (ng) the group's gap, the smallest of its members' (m)
  std::vector<int> friction_group;         // (nf) the group of each friction block (μ > 0)
  std::vector<double> mu;                  // (nf) μ of each friction block

  Eigen::VectorXd cos_edge, sin_edge;      // (k) cos(2πj/k), sin(2πj/k)
  MatrixView A{nullptr, 0, 0};             // (size×size); filled only when Lemke runs
  VectorView q{nullptr, 0};                // (size)

  const SparseRows* J = nullptr;           // [N; L; S; T] of the leaders ((3ng + nl)×nv), in J_rows
  const ContactProblem* problem = nullptr; // the problem J is of, for D's columns computed on demand
  /// J W Jᵀ, by the columns an answer needs (need_D): the rows' assembly computes only the diagonal of
  /// its N block (for a); a column not computed is zero but for that diagonal entry.
  MatrixView D{nullptr, 0, 0};
  std::vector<char> D_known;               // (rows of D) column computed
  std::vector<char> D_wanted, column_mask; // scratch of need_D and of its callers
  VectorView Jv{nullptr, 0};               // J v*
  /// An unknown of z as rows of D (U: its own row; F edge j of group g: cos_j·S_g + sin_j·T_g) or a λ̂, for
  /// basis_matrix: index in z, D rows d1, d2 (−1: none) with weights, friction block (−1 for U).
  struct UnknownRows {
    int index, d1, d2, block;
    double w1, w2;
  };
  std::vector<UnknownRows> basis_rows;

  // --- storage of the views, and scratch ---
  Eigen::VectorXd phi_storage, q_storage, D_storage, Jv_storage, A_storage;
  RowsByCount J_rows;                      // J's storage: an Eigen sparse matrix reallocates on a change of row count
  DelassusScratch delassus_scratch;        // of D = J W Jᵀ
  std::vector<double> size_N, size_S, size_T;   // (nc) row sizes, for the grouping (ST9)
  // The groups whose leader's N row stores a column, for the grouping (ST9): lists by column, in increasing
  // group order, linked through the nodes (one per stored entry of a leader's N row).
  std::vector<int> first_node, last_node;        // (nv) the column's first and last node, −1 if none
  std::vector<int> node_group, node_next;        // (≤ nonzeros of N) the node's group and the next node, −1

  /// Computes the columns c of D with wanted[c] (rows of D) not computed yet, each to the bit of the whole
  /// J W Jᵀ (contact/problem_into.hpp). Entries of D in other columns are read by nothing but D·p_J over a
  /// p_J that is zero there.
  void need_D(const std::vector<char>& wanted);
  /// need_D for the columns the unknowns z_i, i ∈ `unknowns`, act through: p_N and p_L their own, a friction
  /// block its group's S and T (λ̂ none).
  void need_D_of_unknowns(const std::vector<int>& unknowns);
  /// need_D for every column (Lemke on the whole LCP).
  void need_all_D();

  /// A(r, c) of (ST6) read off D, without A (for the warm start, ST10); D's columns of r's and c's unknowns.
  double entry(int r, int c) const;
  /// A_BB(r, c) = entry(basis[r], basis[c]) to the bit, with each unknown's rows of D looked up once (nb×nb).
  void basis_matrix(const std::vector<int>& basis, MatrixView& A_BB);
  /// Az = A z from D in O(size(D)²), without A; p_J and Dp are scratch. Az: size; p_J, Dp: rows of D.
  /// D's columns of z's nonzero unknowns.
  void times(const Eigen::Ref<const Eigen::VectorXd>& z, Eigen::Ref<Eigen::VectorXd> Az, Eigen::Ref<Eigen::VectorXd> p_J,
             Eigen::Ref<Eigen::VectorXd> Dp) const;
};

/// Fills `lcp` with (ST6), (ST7), (ST9) for `problem`, a k-edge pyramid and the merge tolerance
/// (0: no merging): assemble_stewart_trinkle_rows, then assemble_stewart_trinkle_matrix.
void assemble_stewart_trinkle_lcp(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                  StewartTrinkleLcp& lcp);

struct StewartTrinkleWarmStart;
struct ApproachingGroups;
struct StewartTrinkleSparseNewton;
struct StewartTrinkleSingleContact;

/// The groups (ST9), the friction blocks, the pyramid's edges and the layout of z: what fixes the LCP's size
/// n = lcp.size, before any product with W.
void group_stewart_trinkle_rows(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                StewartTrinkleLcp& lcp);
/// Everything of (ST6)–(ST9) but the matrix A: groups, J, D = J W Jᵀ, J v*, a, q.
void assemble_stewart_trinkle_rows(const ContactProblem& problem, int friction_edges, double merge_tolerance,
                                   StewartTrinkleLcp& lcp);
/// The k edges of the pyramid (ST5), d_j = (cos 2πj/k, sin 2πj/k) in the (t1, t2) plane, exactly ±1 and 0 at
/// multiples of π/2. cos_edge, sin_edge: k.
void pyramid_edges(int k, Eigen::VectorXd& cos_edge, Eigen::VectorXd& sin_edge);
/// A tangential impulse (s, t) on the two edges d_j, d_{j+1} whose cone holds it: (s, t) = α d_j + β d_{j+1} with
/// α, β ≥ 0 up to rounding, and α + β the pyramid's gauge of (s, t) (Σ_j p_Fj of (ST5) at its least). Returns j.
int split_onto_edges(double s, double t, const Eigen::VectorXd& cos_edge, const Eigen::VectorXd& sin_edge,
                     double& alpha, double& beta);
/// J = [N; L; S; T] of the groups' leaders into lcp.J (after group_stewart_trinkle_rows).
const SparseRows& stack_stewart_trinkle_rows(const ContactProblem& problem, StewartTrinkleLcp& lcp);
/// The rest of assemble_stewart_trinkle_rows after group_stewart_trinkle_rows: J, D = J W Jᵀ, J v*, a, q.
void assemble_stewart_trinkle_products(const ContactProblem& problem, StewartTrinkleLcp& lcp);
/// A of (ST6) from the rows' D (dense, size²): what Lemke needs and the warm start does not. Reads every
/// column of D: after need_all_D for an LCP of assemble_stewart_trinkle_rows.
void assemble_stewart_trinkle_matrix(StewartTrinkleLcp& lcp);

class StewartTrinkleModel final : public ContactModel {
 public:
  explicit StewartTrinkleModel(StewartTrinkleOptions options = {});
  ~StewartTrinkleModel() override;
  /// For the factory: parses the options (throws OptionError).
  static std::unique_ptr<ContactModel> create(const ModelOptions& options);

  std::string_view name() const override { return "stewart_trinkle"; }
  std::unique_ptr<ContactWorkspace> make_workspace() const override;
  using ContactModel::solve;
  void solve(const ContactProblem& problem, ContactResult& result, ContactWorkspace& workspace) const override;
  const StewartTrinkleOptions& options() const { return options_; }

 private:
  /// The buffers of its solves (ContactWorkspace): what the model object must not hold.
  struct Workspace final : ContactWorkspace {
    explicit Workspace(const StewartTrinkleOptions& options);
    ~Workspace() override;
    LemkeSolver lemke_;
    StewartTrinkleLcp lcp_;
    std::unique_ptr<StewartTrinkleWarmStart> warm_;
    std::unique_ptr<ApproachingGroups> approaching_;   // (ST11)
    std::unique_ptr<StewartTrinkleSparseNewton> sparse_;   // (ST13)
    std::unique_ptr<StewartTrinkleSingleContact> single_;  // one contact (single_contact.hpp)
    // Grow-only scratch (contact/solvers/grow_only.hpp): LCP solution, [p_N; p_L; p_S; p_T], Jᵀ(·), W Jᵀ(·)
    VectorView z_{nullptr, 0}, p_J_{nullptr, 0}, impulse_{nullptr, 0}, dv_{nullptr, 0};
    Eigen::VectorXd z_storage_, p_J_storage_, impulse_storage_, dv_storage_;
    VectorView z_lemke_{nullptr, 0};           // Lemke's solution of the whole LCP, grow-only
    Eigen::VectorXd z_lemke_storage_;
    std::unique_ptr<ContactWorkspace> fallback_;   // fallback_'s buffers (ST12)
  };
  /// z of (ST6) into ws.z_ and its outcome into `lemke`: sparse (ST13) above max_lemke_size, else the warm
  /// start (ST10), the groups (ST11) and Lemke. False when the island fell back (ST12): `result` is final.
  bool solve_sparse(const ContactProblem& problem, ContactResult& result, Workspace& ws, LemkeResult& lemke) const;
  bool solve_dense(const ContactProblem& problem, ContactResult& result, Workspace& ws, LemkeResult& lemke) const;
  /// (ST12): the island under max_dissipation, with `why` the Stewart–Trinkle solve's account.
  void fall_back(const ContactProblem& problem, ContactResult& result, Workspace& ws, const std::string& why) const;
  StewartTrinkleOptions options_;
  std::unique_ptr<ContactModel> fallback_;   // max_dissipation (ST12)
};

}  // namespace impetus
