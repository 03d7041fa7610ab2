// libjpeg-turbo's TurboJPEG API, from Debian's libturbojpeg0-dev.
#include <turbojpeg.h>
