// EGL for rendering with no display (Mesa's surfaceless platform), from Debian's
// libegl-dev.
#include <EGL/egl.h>
#include <EGL/eglext.h>
