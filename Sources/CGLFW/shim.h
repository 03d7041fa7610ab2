// GLFW 3.3 for the window and its input, from Debian's libglfw3-dev. GLFW must not
// include a GL header of its own: the Render library brings the core profile.
#define GLFW_INCLUDE_NONE 1
#include <GLFW/glfw3.h>
