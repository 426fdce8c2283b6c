# The layers and the folders each may include (STYLE.md 9): read by the build (CMakeLists.txt, each
# library's include root) and by check_layering.cmake.
#   base/       nothing of ours (LoadError and what every layer may use)
#   dynamics/   base          collision/  base          contact/  base
#   control/    base, dynamics, contact (controllers with contact solve its problems)
#   sim/        base, dynamics, collision, contact, control
#   batch/      base, dynamics, collision, contact, control, sim (runs of many scenes)
# tools/ and tests/ may include every layer.
set(IMPETUS_LAYERS base dynamics collision contact control sim batch)
set(IMPETUS_ALLOWED_base base)
set(IMPETUS_ALLOWED_dynamics base dynamics)
set(IMPETUS_ALLOWED_collision base collision)
set(IMPETUS_ALLOWED_contact base contact)
set(IMPETUS_ALLOWED_control base dynamics contact control)
set(IMPETUS_ALLOWED_sim base dynamics collision contact control sim)
set(IMPETUS_ALLOWED_batch base dynamics collision contact control sim batch)
