// OpenGL core-profile functions as plain C functions, from Debian's libgl-dev
// (libglvnd). The same libGL serves a GLFW window and an EGL surfaceless context.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
