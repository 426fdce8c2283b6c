// Stage 5 as the stepper runs it (assembly_stage.hpp).
#include "sim/assembly_stage.hpp"

#include <algorithm>
#include <cassert>
#include <tuple>

#include "sim/assembly.hpp"

namespace impetus {

AssemblyStage::AssemblyStage(const WorldModel& model, const ProblemNeeds& needs) : model_(model) {
  if (needs.hull_plane_pairs) hull_plane_.emplace(model);
}

void AssemblyStage::assemble(const State& state, double dt, const WarmStartMemory& memory, StepData& data) const {
  assemble_contact_problems(model_, state, dt, memory.impulses, data, Compliance::Soft);
  data.replaced.assign(data.contacts.size(), 0);
  // The free bodies' hull–ground pairs replace their ground point contacts.
  if (hull_plane_) hull_plane_->assemble(state, dt, memory.body_plane, data);
  data.problem_repeats.resize(data.islands.size(), 0);   // a body alone near the ground: an island of its own
  assert(data.problems.size() == data.islands.size());
}

void AssemblyStage::remember(StepData& data, WarmStartMemory& memory) const {
  // Updated in place, not cleared and refilled: a contact (or pair) that persists keeps its node, so a settled
  // scene allocates nothing here. What the memory holds is the same either way.
  std::vector<ContactKey>& keys = data.warm_keys;
  keys.clear();
  for (const ContactProblem& problem : data.problems) keys.insert(keys.end(), problem.keys.begin(), problem.keys.begin() + problem.nc);
  const auto store = [&] {
    for (std::size_t k = 0; k < data.islands.size(); ++k)
      for (int r = 0; r < data.problems[k].nc; ++r)
        memory.impulses[data.problems[k].keys[r]] = data.impulse[data.islands[k].contacts[r]];
  };
  // The keys of the last step, in the same order, all of them held and the memory no larger than it was left:
  // then it holds exactly these keys, nothing is to be erased, and the sort and the search of every entry
  // below (~3 % of a step of 1000 resting spheres) are skipped. The same entries get the same values in the
  // same order either way, so the memory (and its iteration order, which a restart point writes) is the same.
  const bool same_keys = keys == data.remembered_keys && memory.impulses.size() == data.remembered_count &&
                         std::all_of(keys.begin(), keys.end(), [&](const ContactKey& key) { return memory.impulses.contains(key); });
  if (!same_keys) {
    data.remembered_keys = keys;
    const auto before = [](const ContactKey& a, const ContactKey& b) {
      return std::tie(a.geom_a, a.geom_b, a.feature) < std::tie(b.geom_a, b.geom_b, b.feature);
    };
    std::sort(keys.begin(), keys.end(), before);
    // The entries to erase are those of no key of this step. When the memory holds exactly the keys it was last
    // left with (their count, and each of them: nothing else wrote it since, e.g. Stepper::restore), those are the
    // last step's sorted keys that are not among this step's, found by one merge of the two sorted lists; else every
    // entry is searched for among this step's keys (a binary search per entry: ~5 % of a step of the granular
    // pile's free fall, whose keys change most steps as the sweeps grow, issue 16). Erasing the same entries in
    // another order leaves the others where they were (an erase only unlinks its node), so the memory and its
    // iteration order are the same either way.
    const std::vector<ContactKey>& last = data.remembered_sorted;
    const bool holds_last = memory.impulses.size() == data.remembered_count &&
                            std::all_of(last.begin(), last.end(), [&](const ContactKey& key) { return memory.impulses.contains(key); });
    if (holds_last) {
      auto now = keys.begin();
      for (const ContactKey& key : last) {
        while (now != keys.end() && before(*now, key)) ++now;   // a merge: both lists ascend
        if (now == keys.end() || before(key, *now)) memory.impulses.erase(key);
      }
    } else {
      std::erase_if(memory.impulses,
                    [&](const auto& entry) { return !std::binary_search(keys.begin(), keys.end(), entry.first, before); });
    }
    data.remembered_sorted.assign(keys.begin(), keys.end());
  }
  store();
  data.remembered_count = memory.impulses.size();
  if (hull_plane_) hull_plane_->remember(data.results, memory.body_plane);
  else memory.body_plane.clear();
}

}  // namespace impetus
