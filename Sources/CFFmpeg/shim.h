// FFmpeg's libraries, from Debian's libavformat-dev, libavcodec-dev, libswscale-dev and
// libavutil-dev: demuxing and decoding capture videos (Stray Scanner's rgb.mp4).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
