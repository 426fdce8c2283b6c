// The peer scenes in the Open Dynamics Engine (Debian's libode-dev, double precision), for tools/bench/peers.sh:
//   peer_ode SCENE.xml --solver quick|exact [--duration S] [--budget S]
// quick = dWorldQuickStep (projected Gauss–Seidel, ODE's default 20 iterations), exact = dWorldStep (Dantzig
// LCP on the whole island). ODE's defaults otherwise (ERP 0.2, CFM 1e-5, no auto-disable); the friction pyramid
// scaled by the normal force (dContactApprox1) so that μ means Coulomb's μ, as in Impetus; one thread.
// Prints one JSON line (peer_scene.hpp's PeerReport); wall time counts stepping only (collision + solve).
#include <ode/ode.h>

#include <algorithm>
#include <cstdarg>
#include <iostream>
#include <limits>

#include "peer_scene.hpp"

namespace {

using namespace peers;

// dCollide's cap per geometry pair: a box-box face contact gives up to 8 points (ODE's dBoxBox maximum).
constexpr int kMaxContactsPerPair = 8;

struct Contacts {
  dWorldID world;
  dJointGroupID group;
  double mu;
  double max_depth = 0;
};

void near_callback(void* data, dGeomID a, dGeomID b) {
  auto& c = *static_cast<Contacts*>(data);
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;  // static against static
  dContact contact[kMaxContactsPerPair];
  const int n = dCollide(a, b, kMaxContactsPerPair, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    contact[i].surface.mode = dContactApprox1;
    contact[i].surface.mu = c.mu;
    c.max_depth = std::max(c.max_depth, static_cast<double>(contact[i].geom.depth));
    dJointID j = dJointCreateContact(c.world, c.group, &contact[i]);
    dJointAttach(j, ba, bb);
  }
}

// ODE reports solver trouble (e.g. dWorldStep's "LCP internal error") on stderr through its message handler;
// the peer counts them instead, for the table.
long ode_messages = 0;
void count_message(int, const char*, va_list) { ++ode_messages; }

}  // namespace

int main(int argc, char** argv) {
  try {
    const PeerArgs args = parse_peer_args(argc, argv, "peer_ode SCENE.xml --solver quick|exact [--duration S] [--budget S]");
    if (args.solver != "quick" && args.solver != "exact")
      throw std::invalid_argument("--solver: quick or exact expected, not '" + args.solver + "'");
    const PeerScene scene = load_peer_scene(args.scene_file);
    const double duration = args.duration >= 0 ? args.duration : scene.duration;

    dInitODE2(0);
    dSetMessageHandler(&count_message);
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, scene.gravity[0], scene.gravity[1], scene.gravity[2]);
    dSpaceID space = dHashSpaceCreate(nullptr);
    if (scene.ground) dCreatePlane(space, 0, 0, 1, 0);
    std::vector<dBodyID> bodies(scene.bodies.size(), nullptr);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const PeerBody& pb = scene.bodies[i];
      dGeomID g = pb.is_sphere ? dCreateSphere(space, pb.size[0]) : dCreateBox(space, pb.size[0], pb.size[1], pb.size[2]);
      if (pb.is_static) {
        dGeomSetPosition(g, pb.p[0], pb.p[1], pb.p[2]);
        continue;
      }
      dBodyID body = dBodyCreate(world);
      dMass m;
      if (pb.is_sphere) dMassSetSphereTotal(&m, pb.mass, pb.size[0]);
      else dMassSetBoxTotal(&m, pb.mass, pb.size[0], pb.size[1], pb.size[2]);
      dBodySetMass(body, &m);
      dGeomSetBody(g, body);
      dBodySetPosition(body, pb.p[0], pb.p[1], pb.p[2]);
      dBodySetLinearVel(body, pb.v[0], pb.v[1], pb.v[2]);
      bodies[i] = body;
    }
    Contacts contacts{world, dJointGroupCreate(0), scene.mu};

    PeerReport report;
    report.engine = args.solver == "quick" ? "ode_quick" : "ode_exact";
    report.scene = scene.name;
    const long steps = std::lround(duration / scene.dt);
    const auto t0 = Clock::now();
    for (long s = 0; s < steps; ++s) {
      dSpaceCollide(space, &contacts, &near_callback);
      if (args.solver == "quick") dWorldQuickStep(world, scene.dt);
      else dWorldStep(world, scene.dt);
      dJointGroupEmpty(contacts.group);
      report.steps = s + 1;
      if (s % 10 == 0 && seconds_since(t0) > args.budget) {
        report.status = "over_budget";
        break;
      }
    }
    report.wall_time_s = seconds_since(t0);
    report.sim_time = report.steps * scene.dt;
    report.max_penetration = contacts.max_depth;
    report.solver_errors = ode_messages;
    const int top = top_body(scene);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (!bodies[i]) continue;
      const dReal* p = dBodyGetPosition(bodies[i]);
      const double d = distance({p[0], p[1], p[2]}, scene.bodies[i].p);
      if (!std::isfinite(d)) report.status = "diverged";
      report.max_drift = std::max(report.max_drift, d);
      if (static_cast<int>(i) == top) report.top_drift = d;
    }
    report.print();
    dJointGroupDestroy(contacts.group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "peer_ode: " << e.what() << '\n';
    return 1;
  }
}
