// liblzf (Marc Lehmann's LZF), from Debian's liblzf-dev: PCD's binary_compressed data.
#include <liblzf/lzf.h>
