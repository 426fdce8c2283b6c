// The peer scenes in Bullet (Debian's libbullet-dev, its double-precision build), for tools/bench/peers.sh:
//   peer_bullet SCENE.xml [--duration S] [--budget S]
// Bullet's default world: btDiscreteDynamicsWorld with the sequential-impulse solver (10 iterations), the
// dynamic AABB tree broad phase, default collision configuration and margins, fixed steps of the scene's dt,
// one thread. One change from its defaults: deactivation (sleeping) is off, since Impetus does not put bodies
// to sleep and a sleeping pile would time nothing. Bullet multiplies the two bodies' friction coefficients,
// so every body gets √μ: μ_pair = μ as in Impetus. Prints one JSON line (peer_scene.hpp's PeerReport).
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "peer_scene.hpp"

namespace {

using namespace peers;

/// Deepest penetration among the contacts the last step's narrow phase found (Bullet's distance < 0).
double deepest_contact(btDispatcher& dispatcher) {
  double depth = 0;
  for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
    for (int c = 0; c < manifold->getNumContacts(); ++c)
      depth = std::max(depth, -static_cast<double>(manifold->getContactPoint(c).getDistance()));
  }
  return depth;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const PeerArgs args = parse_peer_args(argc, argv, "peer_bullet SCENE.xml [--duration S] [--budget S]");
    if (!args.solver.empty() && args.solver != "si") throw std::invalid_argument("--solver: only si (sequential impulse)");
    const PeerScene scene = load_peer_scene(args.scene_file);
    const double duration = args.duration >= 0 ? args.duration : scene.duration;

    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
    world.setGravity(btVector3(scene.gravity[0], scene.gravity[1], scene.gravity[2]));
    const double friction = std::sqrt(scene.mu);

    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> motion_states;
    std::vector<std::unique_ptr<btRigidBody>> rigid_bodies;
    auto add = [&](btCollisionShape* shape, double mass, const std::array<double, 3>& p,
                   const std::array<double, 3>& v) -> btRigidBody* {
      shapes.emplace_back(shape);
      btVector3 inertia(0, 0, 0);
      if (mass > 0) shape->calculateLocalInertia(mass, inertia);
      btTransform pose;
      pose.setIdentity();
      pose.setOrigin(btVector3(p[0], p[1], p[2]));
      motion_states.emplace_back(new btDefaultMotionState(pose));
      btRigidBody::btRigidBodyConstructionInfo info(mass, motion_states.back().get(), shape, inertia);
      info.m_friction = friction;
      info.m_restitution = 0;
      rigid_bodies.emplace_back(new btRigidBody(info));
      btRigidBody* body = rigid_bodies.back().get();
      body->setLinearVelocity(btVector3(v[0], v[1], v[2]));
      body->setActivationState(DISABLE_DEACTIVATION);
      world.addRigidBody(body);
      return body;
    };
    if (scene.ground) add(new btStaticPlaneShape(btVector3(0, 0, 1), 0), 0, {0, 0, 0}, {0, 0, 0});
    std::vector<btRigidBody*> bodies(scene.bodies.size(), nullptr);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const PeerBody& pb = scene.bodies[i];
      btCollisionShape* shape = pb.is_sphere ? static_cast<btCollisionShape*>(new btSphereShape(pb.size[0]))
                                             : new btBoxShape(btVector3(pb.size[0] / 2, pb.size[1] / 2, pb.size[2] / 2));
      btRigidBody* body = add(shape, pb.is_static ? 0.0 : pb.mass, pb.p, pb.v);
      if (!pb.is_static) bodies[i] = body;
    }

    PeerReport report;
    report.engine = "bullet_si";
    report.scene = scene.name;
    const long steps = std::lround(duration / scene.dt);
    double wall = 0;
    for (long s = 0; s < steps; ++s) {
      const auto t0 = Clock::now();
      world.stepSimulation(scene.dt, 1, scene.dt);
      wall += seconds_since(t0);
      // Measured outside the clock: the contacts this step's narrow phase found (before the solver moved them).
      report.max_penetration = std::max(report.max_penetration, deepest_contact(dispatcher));
      report.steps = s + 1;
      if (wall > args.budget) {
        report.status = "over_budget";
        break;
      }
    }
    report.wall_time_s = wall;
    report.sim_time = report.steps * scene.dt;
    const int top = top_body(scene);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (!bodies[i]) continue;
      const btVector3& p = bodies[i]->getCenterOfMassPosition();
      const double d = distance({p.x(), p.y(), p.z()}, scene.bodies[i].p);
      if (!std::isfinite(d)) report.status = "diverged";
      report.max_drift = std::max(report.max_drift, d);
      if (static_cast<int>(i) == top) report.top_drift = d;
    }
    report.print();
    for (auto& b : rigid_bodies) world.removeRigidBody(b.get());
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "peer_bullet: " << e.what() << '\n';
    return 1;
  }
}
