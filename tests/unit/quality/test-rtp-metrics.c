/* test-rtp-metrics.c — stream statistics against tshark 4.0 and hand-computed cases */
#include "quality/cs-mos.h"
#include "quality/cs-rtp-metrics.h"
#include "rtp/cs-rtp-pack.h"
#include "quality/cs-rtp-series.h"

#include <math.h>
#include <string.h>

/* Packets copied (as numbers) from sample captures with
 * tshark -Y rtp -T fields -e frame.number -e frame.time_epoch -e rtp.seq
 *   -e rtp.timestamp -e rtp.p_type -e rtp.marker;
 * time is µs since the stream's first packet. */
typedef struct
{
  guint32 frame;
  gint64 t_us;
  guint16 seq;
  guint32 ts;
  guint8 pt;
  guint8 marker;
} SamplePacket;

static const SamplePacket opus_hybrid[] = {
  { 3, 0, 23845, 960u, 99, 1 },          { 4, 160056, 23853, 8640u, 99, 0 },
  { 5, 440059, 23867, 22080u, 99, 0 },   { 6, 3800074, 24035, 183360u, 99, 0 },
  { 7, 6300070, 24160, 303360u, 99, 0 },
};

static const SamplePacket h263_video[] = {
  { 5, 0, 53957, 606563914u, 34, 0 },       { 6, 19, 53958, 606563914u, 34, 0 },
  { 7, 36, 53959, 606563914u, 34, 0 },      { 8, 54, 53960, 606563914u, 34, 0 },
  { 9, 71, 53961, 606563914u, 34, 0 },      { 10, 88, 53962, 606563914u, 34, 0 },
  { 11, 105, 53963, 606563914u, 34, 0 },    { 12, 123, 53964, 606563914u, 34, 0 },
  { 13, 141, 53965, 606563914u, 34, 1 },    { 14, 20557, 53966, 606572914u, 34, 0 },
  { 15, 20573, 53967, 606572914u, 34, 0 },  { 16, 20588, 53968, 606572914u, 34, 0 },
  { 17, 20602, 53969, 606572914u, 34, 1 },  { 18, 40769, 53970, 606581914u, 34, 0 },
  { 19, 40796, 53971, 606581914u, 34, 0 },  { 20, 209938, 53972, 606581914u, 34, 0 },
  { 21, 209954, 53973, 606581914u, 34, 1 }, { 22, 209969, 53974, 606590914u, 34, 0 },
  { 23, 209985, 53975, 606590914u, 34, 0 }, { 24, 210002, 53976, 606590914u, 34, 0 },
  { 25, 210017, 53977, 606590914u, 34, 1 }, { 26, 210033, 53978, 606599914u, 34, 0 },
  { 27, 210067, 53979, 606599914u, 34, 0 }, { 28, 210084, 53980, 606599914u, 34, 0 },
  { 29, 210099, 53981, 606599914u, 34, 1 }, { 30, 534171, 53982, 606608914u, 34, 0 },
  { 31, 534188, 53983, 606608914u, 34, 0 }, { 32, 534205, 53984, 606608914u, 34, 0 },
  { 33, 534221, 53985, 606608914u, 34, 1 }, { 34, 534237, 53986, 606617914u, 34, 0 },
  { 35, 534252, 53987, 606617914u, 34, 0 }, { 36, 534266, 53988, 606617914u, 34, 0 },
  { 37, 534280, 53989, 606617914u, 34, 1 }, { 38, 534294, 53990, 606626914u, 34, 0 },
  { 39, 534309, 53991, 606626914u, 34, 0 }, { 40, 534322, 53992, 606626914u, 34, 0 },
  { 41, 534336, 53993, 606626914u, 34, 1 }, { 42, 695295, 53994, 606635914u, 34, 0 },
  { 43, 695309, 53995, 606635914u, 34, 0 }, { 44, 695325, 53996, 606635914u, 34, 0 },
  { 45, 695338, 53997, 606635914u, 34, 1 }, { 46, 695353, 53998, 606644914u, 34, 0 },
  { 47, 695367, 53999, 606644914u, 34, 0 }, { 48, 695384, 54000, 606644914u, 34, 0 },
  { 49, 695399, 54001, 606644914u, 34, 1 },
};

static const SamplePacket pcma_cn[] = {
  { 8, 0, 26691, 849413436u, 8, 0 },          { 10, 24232, 26692, 849413596u, 8, 0 },
  { 13, 40086, 26693, 849413756u, 8, 0 },     { 15, 61005, 26694, 849413916u, 8, 0 },
  { 17, 80101, 26695, 849414076u, 8, 0 },     { 19, 100014, 26696, 849414236u, 8, 0 },
  { 21, 120075, 26697, 849414396u, 8, 0 },    { 23, 140095, 26698, 849414556u, 8, 0 },
  { 25, 160350, 26699, 849414716u, 8, 0 },    { 27, 180068, 26700, 849414876u, 8, 0 },
  { 29, 200109, 26701, 849415036u, 8, 0 },    { 31, 220105, 26702, 849415196u, 8, 0 },
  { 33, 240087, 26703, 849415356u, 8, 0 },    { 35, 260256, 26704, 849415516u, 8, 0 },
  { 37, 280030, 26705, 849415676u, 13, 0 },   { 39, 300137, 26706, 849415836u, 13, 0 },
  { 41, 319994, 26707, 849415996u, 13, 0 },   { 43, 340250, 26708, 849416156u, 13, 0 },
  { 47, 400075, 26709, 849416636u, 13, 0 },   { 50, 439963, 26710, 849416956u, 13, 0 },
  { 54, 499920, 26711, 849417436u, 13, 0 },   { 211, 3960251, 26712, 849445116u, 8, 1 },
  { 213, 3980068, 26713, 849445276u, 8, 0 },  { 215, 4000069, 26714, 849445436u, 8, 0 },
  { 216, 4020046, 26715, 849445596u, 8, 0 },  { 219, 4040071, 26716, 849445756u, 8, 0 },
  { 221, 4060251, 26717, 849445916u, 8, 0 },  { 222, 4080037, 26718, 849446076u, 8, 0 },
  { 225, 4100223, 26719, 849446236u, 8, 0 },  { 227, 4120113, 26720, 849446396u, 8, 0 },
  { 228, 4140116, 26721, 849446556u, 8, 0 },  { 231, 4160018, 26722, 849446716u, 8, 0 },
  { 233, 4180033, 26723, 849446876u, 8, 0 },  { 234, 4199884, 26724, 849447036u, 8, 0 },
  { 237, 4220012, 26725, 849447196u, 8, 0 },  { 239, 4240061, 26726, 849447356u, 8, 0 },
  { 240, 4259979, 26727, 849447516u, 8, 0 },  { 243, 4280044, 26728, 849447676u, 8, 0 },
  { 245, 4300023, 26729, 849447836u, 8, 0 },  { 246, 4319893, 26730, 849447996u, 8, 0 },
  { 249, 4340089, 26731, 849448156u, 8, 0 },  { 251, 4360194, 26732, 849448316u, 8, 0 },
  { 252, 4379962, 26733, 849448476u, 8, 0 },  { 254, 4399949, 26734, 849448636u, 8, 0 },
  { 255, 4419931, 26735, 849448796u, 8, 0 },  { 256, 4440017, 26736, 849448956u, 8, 0 },
  { 257, 4459966, 26737, 849449116u, 13, 0 },
};

static const SamplePacket pcma_cn_tcp[] = {
  { 13, 0, 54339, 1884819849u, 8, 0 },       { 15, 13381, 54340, 1884820009u, 8, 0 },
  { 18, 37203, 54341, 1884820169u, 8, 0 },   { 21, 60826, 54342, 1884820329u, 8, 0 },
  { 22, 73485, 54343, 1884820489u, 8, 0 },   { 25, 97251, 54344, 1884820649u, 8, 0 },
  { 26, 113411, 54345, 1884820809u, 8, 0 },  { 28, 135081, 54346, 1884820969u, 8, 0 },
  { 31, 157342, 54347, 1884821129u, 8, 0 },  { 33, 179693, 54348, 1884821289u, 8, 0 },
  { 34, 193414, 54349, 1884821449u, 8, 0 },  { 37, 217108, 54350, 1884821609u, 8, 0 },
  { 38, 239737, 54351, 1884821769u, 8, 0 },  { 39, 253462, 54352, 1884821929u, 8, 0 },
  { 41, 277114, 54353, 1884822089u, 8, 0 },  { 42, 299821, 54354, 1884822249u, 8, 0 },
  { 43, 313553, 54355, 1884822409u, 8, 0 },  { 44, 337227, 54356, 1884822569u, 8, 0 },
  { 45, 353388, 54357, 1884822729u, 8, 0 },  { 46, 373398, 54358, 1884822889u, 8, 0 },
  { 47, 397380, 54359, 1884823049u, 8, 0 },  { 48, 413544, 54360, 1884823209u, 8, 0 },
  { 49, 434923, 54361, 1884823369u, 8, 0 },  { 50, 457344, 54362, 1884823529u, 8, 0 },
  { 51, 473174, 54363, 1884823689u, 8, 0 },  { 52, 493452, 54364, 1884823849u, 8, 0 },
  { 54, 517139, 54365, 1884824009u, 13, 0 }, { 55, 697323, 54366, 1884825449u, 13, 0 },
  { 56, 1813696, 54367, 1884834409u, 8, 1 }, { 59, 1837117, 54368, 1884834569u, 8, 0 },
  { 61, 1860453, 54369, 1884834729u, 8, 0 }, { 62, 1873360, 54370, 1884834889u, 8, 0 },
  { 65, 1897122, 54371, 1884835049u, 8, 0 }, { 66, 1913357, 54372, 1884835209u, 8, 0 },
  { 68, 1935666, 54373, 1884835369u, 8, 0 }, { 71, 1957120, 54374, 1884835529u, 8, 0 },
  { 72, 1973367, 54375, 1884835689u, 8, 0 }, { 74, 1993417, 54376, 1884835849u, 8, 0 },
  { 77, 2017087, 54377, 1884836009u, 8, 0 }, { 78, 2035081, 54378, 1884836169u, 8, 0 },
  { 79, 2053458, 54379, 1884836329u, 8, 0 }, { 80, 2077211, 54380, 1884836489u, 8, 0 },
};

static const SamplePacket pcma_short[] = {
  { 2953, 0, 0, 219u, 8, 1 },     { 2960, 19805, 1, 379u, 8, 0 }, { 2963, 39828, 2, 539u, 8, 0 },
  { 2966, 59836, 3, 699u, 8, 0 }, { 2968, 89879, 4, 859u, 8, 0 }, { 2973, 110042, 5, 1019u, 8, 0 },
};

static const SamplePacket pcmu_225[] = {
  { 6, 0, 37595, 160u, 0, 1 },           { 7, 19984, 37596, 320u, 0, 0 },
  { 8, 39992, 37597, 480u, 0, 0 },       { 9, 60002, 37598, 640u, 0, 0 },
  { 10, 79981, 37599, 800u, 0, 0 },      { 11, 100001, 37600, 960u, 0, 0 },
  { 12, 119990, 37601, 1120u, 0, 0 },    { 13, 139991, 37602, 1280u, 0, 0 },
  { 14, 159996, 37603, 1440u, 0, 0 },    { 15, 179981, 37604, 1600u, 0, 0 },
  { 16, 199996, 37605, 1760u, 0, 0 },    { 17, 219993, 37606, 1920u, 0, 0 },
  { 18, 240010, 37607, 2080u, 0, 0 },    { 19, 259996, 37608, 2240u, 0, 0 },
  { 20, 279981, 37609, 2400u, 0, 0 },    { 21, 299997, 37610, 2560u, 0, 0 },
  { 22, 319991, 37611, 2720u, 0, 0 },    { 23, 339997, 37612, 2880u, 0, 0 },
  { 24, 359986, 37613, 3040u, 0, 0 },    { 25, 379986, 37614, 3200u, 0, 0 },
  { 26, 399993, 37615, 3360u, 0, 0 },    { 27, 419994, 37616, 3520u, 0, 0 },
  { 28, 439981, 37617, 3680u, 0, 0 },    { 29, 459991, 37618, 3840u, 0, 0 },
  { 30, 479991, 37619, 4000u, 0, 0 },    { 31, 500005, 37620, 4160u, 0, 0 },
  { 32, 519993, 37621, 4320u, 0, 0 },    { 33, 539995, 37622, 4480u, 0, 0 },
  { 34, 559992, 37623, 4640u, 0, 0 },    { 35, 579995, 37624, 4800u, 0, 0 },
  { 36, 599991, 37625, 4960u, 0, 0 },    { 37, 619997, 37626, 5120u, 0, 0 },
  { 38, 639997, 37627, 5280u, 0, 0 },    { 39, 659982, 37628, 5440u, 0, 0 },
  { 40, 679987, 37629, 5600u, 0, 0 },    { 41, 699997, 37630, 5760u, 0, 0 },
  { 42, 719990, 37631, 5920u, 0, 0 },    { 43, 739992, 37632, 6080u, 0, 0 },
  { 44, 759984, 37633, 6240u, 0, 0 },    { 45, 779978, 37634, 6400u, 0, 0 },
  { 46, 799992, 37635, 6560u, 0, 0 },    { 47, 819982, 37636, 6720u, 0, 0 },
  { 48, 839997, 37637, 6880u, 0, 0 },    { 49, 859992, 37638, 7040u, 0, 0 },
  { 50, 879993, 37639, 7200u, 0, 0 },    { 51, 899996, 37640, 7360u, 0, 0 },
  { 52, 919993, 37641, 7520u, 0, 0 },    { 53, 939991, 37642, 7680u, 0, 0 },
  { 54, 959993, 37643, 7840u, 0, 0 },    { 55, 979989, 37644, 8000u, 0, 0 },
  { 56, 999988, 37645, 8160u, 0, 0 },    { 57, 1019981, 37646, 8320u, 0, 0 },
  { 58, 1039993, 37647, 8480u, 0, 0 },   { 59, 1060006, 37648, 8640u, 0, 0 },
  { 60, 1079995, 37649, 8800u, 0, 0 },   { 61, 1099996, 37650, 8960u, 0, 0 },
  { 62, 1119993, 37651, 9120u, 0, 0 },   { 63, 1139990, 37652, 9280u, 0, 0 },
  { 64, 1160002, 37653, 9440u, 0, 0 },   { 65, 1179996, 37654, 9600u, 0, 0 },
  { 66, 1199993, 37655, 9760u, 0, 0 },   { 67, 1219992, 37656, 9920u, 0, 0 },
  { 68, 1239993, 37657, 10080u, 0, 0 },  { 69, 1259993, 37658, 10240u, 0, 0 },
  { 70, 1279989, 37659, 10400u, 0, 0 },  { 71, 1299991, 37660, 10560u, 0, 0 },
  { 72, 1319994, 37661, 10720u, 0, 0 },  { 73, 1339990, 37662, 10880u, 0, 0 },
  { 74, 1359994, 37663, 11040u, 0, 0 },  { 75, 1380003, 37664, 11200u, 0, 0 },
  { 76, 1399988, 37665, 11360u, 0, 0 },  { 77, 1420000, 37666, 11520u, 0, 0 },
  { 78, 1440008, 37667, 11680u, 0, 0 },  { 79, 1459995, 37668, 11840u, 0, 0 },
  { 80, 1479979, 37669, 12000u, 0, 0 },  { 81, 1500005, 37670, 12160u, 0, 0 },
  { 82, 1519996, 37671, 12320u, 0, 0 },  { 83, 1539998, 37672, 12480u, 0, 0 },
  { 84, 1559991, 37673, 12640u, 0, 0 },  { 85, 1579996, 37674, 12800u, 0, 0 },
  { 86, 1600000, 37675, 12960u, 0, 0 },  { 87, 1619995, 37676, 13120u, 0, 0 },
  { 88, 1640003, 37677, 13280u, 0, 0 },  { 89, 1659978, 37678, 13440u, 0, 0 },
  { 90, 1679996, 37679, 13600u, 0, 0 },  { 91, 1699996, 37680, 13760u, 0, 0 },
  { 92, 1719997, 37681, 13920u, 0, 0 },  { 93, 1739989, 37682, 14080u, 0, 0 },
  { 94, 1759999, 37683, 14240u, 0, 0 },  { 95, 1779989, 37684, 14400u, 0, 0 },
  { 96, 1799996, 37685, 14560u, 0, 0 },  { 97, 1819993, 37686, 14720u, 0, 0 },
  { 98, 1839995, 37687, 14880u, 0, 0 },  { 99, 1859985, 37688, 15040u, 0, 0 },
  { 100, 1879991, 37689, 15200u, 0, 0 }, { 101, 1899992, 37690, 15360u, 0, 0 },
  { 102, 1920000, 37691, 15520u, 0, 0 }, { 103, 1939999, 37692, 15680u, 0, 0 },
  { 104, 1959995, 37693, 15840u, 0, 0 }, { 105, 1979989, 37694, 16000u, 0, 0 },
  { 106, 1999992, 37695, 16160u, 0, 0 }, { 107, 2019989, 37696, 16320u, 0, 0 },
  { 108, 2039986, 37697, 16480u, 0, 0 }, { 109, 2060012, 37698, 16640u, 0, 0 },
  { 110, 2079998, 37699, 16800u, 0, 0 }, { 111, 2099997, 37700, 16960u, 0, 0 },
  { 112, 2119991, 37701, 17120u, 0, 0 }, { 113, 2139996, 37702, 17280u, 0, 0 },
  { 114, 2159994, 37703, 17440u, 0, 0 }, { 115, 2179985, 37704, 17600u, 0, 0 },
  { 116, 2199990, 37705, 17760u, 0, 0 }, { 117, 2219997, 37706, 17920u, 0, 0 },
  { 118, 2240001, 37707, 18080u, 0, 0 }, { 119, 2259994, 37708, 18240u, 0, 0 },
  { 120, 2279976, 37709, 18400u, 0, 0 }, { 121, 2299981, 37710, 18560u, 0, 0 },
  { 122, 2319984, 37711, 18720u, 0, 0 }, { 123, 2339982, 37712, 18880u, 0, 0 },
  { 124, 2359987, 37713, 19040u, 0, 0 }, { 125, 2379986, 37714, 19200u, 0, 0 },
  { 126, 2399983, 37715, 19360u, 0, 0 }, { 127, 2419983, 37716, 19520u, 0, 0 },
  { 128, 2439987, 37717, 19680u, 0, 0 }, { 129, 2459981, 37718, 19840u, 0, 0 },
  { 130, 2479975, 37719, 20000u, 0, 0 }, { 131, 2499982, 37720, 20160u, 0, 0 },
  { 132, 2519988, 37721, 20320u, 0, 0 }, { 133, 2539980, 37722, 20480u, 0, 0 },
  { 134, 2559992, 37723, 20640u, 0, 0 }, { 135, 2579982, 37724, 20800u, 0, 0 },
  { 136, 2599977, 37725, 20960u, 0, 0 }, { 137, 2619982, 37726, 21120u, 0, 0 },
  { 138, 2639984, 37727, 21280u, 0, 0 }, { 139, 2659978, 37728, 21440u, 0, 0 },
  { 140, 2679984, 37729, 21600u, 0, 0 }, { 141, 2699986, 37730, 21760u, 0, 0 },
  { 142, 2719981, 37731, 21920u, 0, 0 }, { 143, 2739985, 37732, 22080u, 0, 0 },
  { 144, 2759979, 37733, 22240u, 0, 0 }, { 145, 2779991, 37734, 22400u, 0, 0 },
  { 146, 2799990, 37735, 22560u, 0, 0 }, { 147, 2820007, 37736, 22720u, 0, 0 },
  { 148, 2839990, 37737, 22880u, 0, 0 }, { 149, 2859982, 37738, 23040u, 0, 0 },
  { 150, 2879996, 37739, 23200u, 0, 0 }, { 151, 2899997, 37740, 23360u, 0, 0 },
  { 152, 2919980, 37741, 23520u, 0, 0 }, { 153, 2939986, 37742, 23680u, 0, 0 },
  { 154, 2960008, 37743, 23840u, 0, 0 }, { 155, 2979989, 37744, 24000u, 0, 0 },
  { 156, 2999979, 37745, 24160u, 0, 0 }, { 157, 3019982, 37746, 24320u, 0, 0 },
  { 158, 3039981, 37747, 24480u, 0, 0 }, { 159, 3059995, 37748, 24640u, 0, 0 },
  { 160, 3079990, 37749, 24800u, 0, 0 }, { 161, 3099978, 37750, 24960u, 0, 0 },
  { 162, 3119982, 37751, 25120u, 0, 0 }, { 163, 3139984, 37752, 25280u, 0, 0 },
  { 164, 3159985, 37753, 25440u, 0, 0 }, { 165, 3179986, 37754, 25600u, 0, 0 },
  { 166, 3199981, 37755, 25760u, 0, 0 }, { 167, 3219984, 37756, 25920u, 0, 0 },
  { 168, 3239986, 37757, 26080u, 0, 0 }, { 169, 3259990, 37758, 26240u, 0, 0 },
  { 170, 3279983, 37759, 26400u, 0, 0 }, { 171, 3299998, 37760, 26560u, 0, 0 },
  { 172, 3319991, 37761, 26720u, 0, 0 }, { 173, 3339991, 37762, 26880u, 0, 0 },
  { 174, 3359996, 37763, 27040u, 0, 0 }, { 175, 3379996, 37764, 27200u, 0, 0 },
  { 176, 3399996, 37765, 27360u, 0, 0 }, { 177, 3419991, 37766, 27520u, 0, 0 },
  { 178, 3439990, 37767, 27680u, 0, 0 }, { 179, 3459990, 37768, 27840u, 0, 0 },
  { 180, 3479978, 37769, 28000u, 0, 0 }, { 181, 3499981, 37770, 28160u, 0, 0 },
  { 182, 3519982, 37771, 28320u, 0, 0 }, { 183, 3539981, 37772, 28480u, 0, 0 },
  { 184, 3559980, 37773, 28640u, 0, 0 }, { 185, 3579981, 37774, 28800u, 0, 0 },
  { 186, 3599979, 37775, 28960u, 0, 0 }, { 187, 3619977, 37776, 29120u, 0, 0 },
  { 188, 3639976, 37777, 29280u, 0, 0 }, { 189, 3659975, 37778, 29440u, 0, 0 },
  { 190, 3679985, 37779, 29600u, 0, 0 }, { 191, 3699979, 37780, 29760u, 0, 0 },
  { 192, 3719981, 37781, 29920u, 0, 0 }, { 193, 3740000, 37782, 30080u, 0, 0 },
  { 194, 3759997, 37783, 30240u, 0, 0 }, { 195, 3779979, 37784, 30400u, 0, 0 },
  { 196, 3799999, 37785, 30560u, 0, 0 }, { 197, 3819997, 37786, 30720u, 0, 0 },
  { 198, 3839996, 37787, 30880u, 0, 0 }, { 199, 3859995, 37788, 31040u, 0, 0 },
  { 200, 3879996, 37789, 31200u, 0, 0 }, { 201, 3899994, 37790, 31360u, 0, 0 },
  { 202, 3919994, 37791, 31520u, 0, 0 }, { 203, 3939988, 37792, 31680u, 0, 0 },
  { 204, 3959984, 37793, 31840u, 0, 0 }, { 205, 3979988, 37794, 32000u, 0, 0 },
  { 206, 3999988, 37795, 32160u, 0, 0 }, { 207, 4019989, 37796, 32320u, 0, 0 },
  { 208, 4039986, 37797, 32480u, 0, 0 }, { 209, 4059988, 37798, 32640u, 0, 0 },
  { 210, 4079982, 37799, 32800u, 0, 0 }, { 211, 4099987, 37800, 32960u, 0, 0 },
  { 212, 4119994, 37801, 33120u, 0, 0 }, { 213, 4139987, 37802, 33280u, 0, 0 },
  { 214, 4159984, 37803, 33440u, 0, 0 }, { 215, 4179993, 37804, 33600u, 0, 0 },
  { 216, 4199996, 37805, 33760u, 0, 0 }, { 217, 4219984, 37806, 33920u, 0, 0 },
  { 218, 4239991, 37807, 34080u, 0, 0 }, { 219, 4259993, 37808, 34240u, 0, 0 },
  { 220, 4279980, 37809, 34400u, 0, 0 }, { 221, 4299991, 37810, 34560u, 0, 0 },
  { 222, 4319994, 37811, 34720u, 0, 0 }, { 223, 4339994, 37812, 34880u, 0, 0 },
  { 224, 4359991, 37813, 35040u, 0, 0 }, { 225, 4379992, 37814, 35200u, 0, 0 },
  { 226, 4399992, 37815, 35360u, 0, 0 }, { 227, 4419992, 37816, 35520u, 0, 0 },
  { 228, 4439991, 37817, 35680u, 0, 0 }, { 229, 4459979, 37818, 35840u, 0, 0 },
  { 230, 4479981, 37819, 36000u, 0, 0 },
};

typedef struct
{
  const char *name;
  const SamplePacket *packets;
  gsize n;
  guint dyn_pt; /* rtpmap from the capture's SDP, 0 = none */
  const char *dyn_encoding;
  guint dyn_clock;
  guint event_pt; /* telephone-event PT from SDP, 0 = none */
  /* tshark -q -z rtp,streams (TShark 4.0.17) */
  guint32 packets_expected;
  gint32 lost;
  double min_delta, mean_delta, max_delta, min_jitter, mean_jitter, max_jitter;
  gboolean problem;
} SampleStream;

static const SampleStream sample_streams[] = {
  { "sip-rtp-opus-hybrid 0x043EEE04", opus_hybrid, G_N_ELEMENTS (opus_hybrid), 99, "opus", 48000,
    101, 5, 311, 160.056, 1575.018, 3360.015, 0.003, 0.004, 0.004, TRUE },
  { "h263-over-rtp 0x5482ECE0", h263_video, G_N_ELEMENTS (h263_video), 0, NULL, 0, 101, 45, 0,
    0.013, 18.875, 324.072, 0.001, 15.505, 32.186, FALSE },
  { "rtp-protocol 0x44C61AFB (g711A, CN)", pcma_cn, G_N_ELEMENTS (pcma_cn), 0, NULL, 0, 101, 47, 0,
    15.854, 20.004, 24.232, 0.135, 0.309, 0.556, FALSE },
  { "sip-over-tcp 0x42F433D4 (g711A, CN)", pcma_cn_tcp, G_N_ELEMENTS (pcma_cn_tcp), 0, NULL, 0, 101,
    42, 0, 12.659, 19.907, 23.982, 0.414, 2.304, 3.063, FALSE },
  { "SIP_CALL_RTP_G711 0x00002E3D", pcma_short, G_N_ELEMENTS (pcma_short), 0, NULL, 0, 0, 6, 0,
    19.805, 22.008, 30.043, 0.012, 0.257, 0.639, FALSE },
  /* tshark -c 230 on sip-rtp-g711.pcap */
  { "sip-rtp-g711 0x343DA99B, first 225", pcmu_225, G_N_ELEMENTS (pcmu_225), 0, NULL, 0, 0, 225, 0,
    19.975, 20.000, 20.026, 0.001, 0.006, 0.009, FALSE },
};

static CsRtpPacket *
sample_to_packets (const SamplePacket *s, gsize n)
{
  CsRtpPacket *packets = g_new0 (CsRtpPacket, n);

  for (gsize i = 0; i < n; i++)
    {
      packets[i].arrival_ns = G_GINT64_CONSTANT (1480255668000000000) + s[i].t_us * 1000;
      packets[i].frame = s[i].frame;
      packets[i].seq = s[i].seq;
      packets[i].timestamp = s[i].ts;
      packets[i].payload_type = s[i].pt;
      packets[i].payload_len = 160;
      packets[i].flags = s[i].marker ? CS_RTP_FLAG_MARKER : 0;
    }
  return packets;
}

/* tshark prints 3 decimals: a delta must agree to 0.01 ms, a jitter to 1 % or 0.01 ms. */
static void
assert_close (const char *what, double got, double want, double abs_tol, double rel_tol)
{
  double tol = MAX (abs_tol, fabs (want) * rel_tol);

  if (fabs (got - want) > tol)
    g_error ("%s: got %.6f, tshark %.3f", what, got, want);
}

static void
test_against_tshark (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (sample_streams); i++)
    {
      const SampleStream *ss = &sample_streams[i];
      g_autofree CsRtpPacket *packets = sample_to_packets (ss->packets, ss->n);
      CsRtpClockMap clocks;
      CsRtpStats st;

      cs_rtp_clock_map_init_static (&clocks);
      if (ss->dyn_pt != 0)
        cs_rtp_clock_map_set_rtpmap (&clocks, ss->dyn_pt, ss->dyn_encoding, ss->dyn_clock);
      if (ss->event_pt != 0)
        cs_rtp_clock_map_set_rtpmap (&clocks, ss->event_pt, "telephone-event", 8000);
      cs_rtp_stats_compute (packets, ss->n, &clocks, &st);

      g_test_message ("%s", ss->name);
      g_assert_cmpuint (st.packets, ==, ss->packets_expected);
      g_assert_cmpint (st.lost, ==, ss->lost);
      g_assert_cmpuint (st.expected, ==, ss->packets_expected + ss->lost);
      assert_close ("min delta", st.min_delta_ms, ss->min_delta, 0.01, 0);
      assert_close ("mean delta", st.mean_delta_ms, ss->mean_delta, 0.01, 0);
      assert_close ("max delta", st.max_delta_ms, ss->max_delta, 0.01, 0);
      assert_close ("min jitter", st.min_jitter_ms, ss->min_jitter, 0.01, 0.01);
      assert_close ("mean jitter", st.mean_jitter_ms, ss->mean_jitter, 0.01, 0.01);
      assert_close ("max jitter", st.max_jitter_ms, ss->max_jitter, 0.01, 0.01);
      g_assert_cmpint (st.problem, ==, ss->problem);
      g_assert_cmpuint (st.first_frame, ==, ss->packets[0].frame);
      g_assert_cmpuint (st.last_frame, ==, ss->packets[ss->n - 1].frame);
    }
}

/* Agreement tighter than the 3 printed decimals on streams with no rounding trap. */
static void
test_tshark_exact_digits (void)
{
  g_autofree CsRtpPacket *packets = sample_to_packets (h263_video, G_N_ELEMENTS (h263_video));
  CsRtpClockMap clocks;
  CsRtpStats st;

  cs_rtp_clock_map_init_static (&clocks);
  cs_rtp_stats_compute (packets, G_N_ELEMENTS (h263_video), &clocks, &st);
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 324.072, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.mean_jitter_ms, 15.505, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 32.186, 0.0005);
  g_assert_cmpuint (st.clock_rate, ==, 90000);
  g_assert_cmpuint (st.payload_type, ==, 34);
}

/* ---- hand-computed streams ---- */

typedef struct
{
  double t_ms;
  guint16 seq;
  guint32 ts;
  guint8 pt;
  guint8 marker;
} Hand;

static CsRtpPacket *
hand_packets (const Hand *h, gsize n)
{
  CsRtpPacket *p = g_new0 (CsRtpPacket, n);

  for (gsize i = 0; i < n; i++)
    {
      p[i].arrival_ns = G_GINT64_CONSTANT (1000000000000) + (gint64) llround (h[i].t_ms * 1e6);
      p[i].frame = (guint32) (i + 1);
      p[i].seq = h[i].seq;
      p[i].timestamp = h[i].ts;
      p[i].payload_type = h[i].pt;
      p[i].payload_len = 160;
      p[i].flags = h[i].marker ? CS_RTP_FLAG_MARKER : 0;
    }
  return p;
}

static CsRtpPacket *
regular_stream (gsize n, guint8 pt, guint ts_step, double ptime_ms, guint16 seq0, guint32 ts0)
{
  CsRtpPacket *p = g_new0 (CsRtpPacket, n);

  for (gsize i = 0; i < n; i++)
    {
      p[i].arrival_ns = G_GINT64_CONSTANT (1000000000000) + (gint64) llround (i * ptime_ms * 1e6);
      p[i].frame = (guint32) (i + 1);
      p[i].seq = (guint16) (seq0 + i);
      p[i].timestamp = ts0 + (guint32) (i * ts_step);
      p[i].payload_type = pt;
      p[i].payload_len = 160;
    }
  return p;
}

static void
compute (const CsRtpPacket *p, gsize n, CsRtpStats *st)
{
  CsRtpClockMap clocks;

  cs_rtp_clock_map_init_static (&clocks);
  cs_rtp_clock_map_set_rtpmap (&clocks, 97, "AMR-WB", 16000);
  cs_rtp_clock_map_set_rtpmap (&clocks, 111, "opus", 48000);
  cs_rtp_clock_map_set_rtpmap (&clocks, 101, "telephone-event", 8000);
  cs_rtp_stats_compute (p, n, &clocks, st);
}

static void
test_perfect_stream (void)
{
  g_autofree CsRtpPacket *p = regular_stream (50, 8, 160, 20.0, 1000, 5000);
  CsRtpStats st;

  compute (p, 50, &st);
  g_assert_cmpuint (st.packets, ==, 50);
  g_assert_cmpuint (st.expected, ==, 50);
  g_assert_cmpint (st.lost, ==, 0);
  g_assert_cmpuint (st.sequence_errors, ==, 0);
  g_assert_cmpfloat_with_epsilon (st.min_delta_ms, 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 20.0, 1e-9);
  /* Wireshark's running mean divides by packets so far: 49 deltas over 49. */
  g_assert_cmpfloat_with_epsilon (st.mean_delta_ms, 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.mean_bitrate_kbps, 64.0, 1e-6);
  g_assert_false (st.problem);
}

static void
test_seq_wrap (void)
{
  g_autofree CsRtpPacket *p = regular_stream (20, 0, 160, 20.0, 65530, 0xfffff000u);
  CsRtpPacket lossy[18];
  CsRtpStats st;
  gsize k = 0;

  compute (p, 20, &st);
  g_assert_cmpuint (st.expected, ==, 20);
  g_assert_cmpint (st.lost, ==, 0);
  g_assert_cmpuint (st.sequence_errors, ==, 0);
  /* the RTP timestamp wrapped too (0xfffff000 + 19·160 > 2^32): no jitter from it */
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 0.0, 1e-9);

  /* lose 65535 and 0 across the wrap */
  for (gsize i = 0; i < 20; i++)
    if (p[i].seq != 65535 && p[i].seq != 0)
      lossy[k++] = p[i];
  compute (lossy, k, &st);
  /* tshark 4.0.17: 18 packets, lost 2, delta 20.000 22.353 60.000, problem X */
  g_assert_cmpfloat_with_epsilon (st.mean_delta_ms, 22.353, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 60.0, 1e-9);
  g_assert_cmpuint (st.packets, ==, 18);
  g_assert_cmpuint (st.expected, ==, 20);
  g_assert_cmpint (st.lost, ==, 2);
  g_assert_cmpuint (st.sequence_errors, ==, 1);
  g_assert_true (st.problem);
}

static void
test_reordering (void)
{
  static const Hand h[] = {
    { 0, 1, 0, 0, 0 },    { 20, 2, 160, 0, 0 }, { 40, 4, 480, 0, 0 },
    { 41, 3, 320, 0, 0 }, { 60, 5, 640, 0, 0 },
  };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  g_autoptr (GArray) series = NULL;
  CsRtpClockMap clocks;
  CsRtpStats st;

  compute (p, G_N_ELEMENTS (h), &st);
  g_assert_cmpuint (st.expected, ==, 5);
  g_assert_cmpint (st.lost, ==, 0);
  g_assert_cmpuint (st.sequence_errors, ==, 2); /* the jump to 4, then the late 3 */
  g_assert_cmpuint (st.out_of_order, ==, 1);
  g_assert_cmpuint (st.duplicates, ==, 0);
  /* 3's timestamp is after the first packet's: "in time sequence" for Wireshark 4.0,
   * so it enters the deltas (1 ms) and the jitter. tshark 4.0.17 on this stream:
   * min/mean/max delta 1.000 15.000 20.000, jitter 0.000 1.844 3.642, problem X. */
  g_assert_cmpuint (st.wrong_timestamp_packets, ==, 0);
  g_assert_true (st.problem);
  g_assert_cmpfloat_with_epsilon (st.min_delta_ms, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.mean_delta_ms, 15.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.mean_jitter_ms, 1.844, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 3.642, 0.0005);

  cs_rtp_clock_map_init_static (&clocks);
  series = cs_rtp_series_compute (p, G_N_ELEMENTS (h), &clocks, p[0].arrival_ns);
  g_assert_cmpuint (series->len, ==, 5);
  g_assert_cmpuint (g_array_index (series, CsRtpSeriesPoint, 2).lost_before, ==, 1);
  g_assert_true (g_array_index (series, CsRtpSeriesPoint, 3).flags & CS_RTP_SERIES_OUT_OF_ORDER);
  g_assert_true (g_array_index (series, CsRtpSeriesPoint, 3).flags & CS_RTP_SERIES_SEQ_ERROR);
  g_assert_cmpfloat_with_epsilon (g_array_index (series, CsRtpSeriesPoint, 4).time_s, 0.060, 1e-9);
}

static void
test_duplicates (void)
{
  static const Hand h[] = {
    { 0, 1, 0, 8, 0 },    { 20, 2, 160, 8, 0 }, { 40, 3, 320, 8, 0 },
    { 41, 3, 320, 8, 0 }, { 60, 4, 480, 8, 0 },
  };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  CsRtpStats st;

  compute (p, G_N_ELEMENTS (h), &st);
  /* tshark 4.0.17: 5 packets, lost -1 (-25.0%), delta 1.000 15.000 20.000,
   * jitter 0.000 0.046 0.121, problem X */
  g_assert_cmpfloat_with_epsilon (st.mean_jitter_ms, 0.046, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 0.121, 0.0005);
  g_assert_cmpfloat_with_epsilon (st.min_delta_ms, 1.0, 1e-9);
  g_assert_cmpuint (st.packets, ==, 5);
  g_assert_cmpuint (st.expected, ==, 4);
  g_assert_cmpint (st.lost, ==, -1);
  g_assert_cmpuint (st.duplicates, ==, 1);
  g_assert_cmpuint (st.sequence_errors, ==, 1);
}

static void
test_jitter_by_hand (void)
{
  /* arrivals 0, 20, 45 ms for 20 ms of timestamps each: D = 0 then 5 ms */
  static const Hand h[] = { { 0, 10, 0, 8, 0 }, { 20, 11, 160, 8, 0 }, { 45, 12, 320, 8, 0 } };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  CsRtpStats st;

  compute (p, 3, &st);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 5.0 / 16.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.last_jitter_ms, 5.0 / 16.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.min_jitter_ms, 0.0, 1e-9);
  /* running means over packets-so-far: (0)/1 then (0·1 + 5/16)/2 */
  g_assert_cmpfloat_with_epsilon (st.mean_jitter_ms, 5.0 / 32.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.min_delta_ms, 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 25.0, 1e-9);
  g_assert_cmpuint (st.max_delta_frame, ==, 3);
  g_assert_cmpfloat_with_epsilon (st.mean_delta_ms, 22.5, 1e-9);
  /* skew: nominal 40 ms vs arrival 45 ms */
  g_assert_cmpfloat_with_epsilon (st.last_skew_ms, -5.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_skew_ms, -5.0, 1e-9);
}

static void
test_clock_rates (void)
{
  struct
  {
    guint8 pt;
    guint ts_step;
    guint clock;
  } cases[] = { { 8, 160, 8000 }, { 97, 320, 16000 }, { 111, 960, 48000 } };

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree CsRtpPacket *p = regular_stream (10, cases[c].pt, cases[c].ts_step, 20.0, 7, 99);
      CsRtpStats st;

      /* the 5th packet arrives 1.6 ms late: D = 1.6 ms (J = 0.1), and the 6th,
       * on time, is 1.6 ms early against the 5th: J = 0.1·15/16 + 0.1 */
      p[4].arrival_ns += 1600000;
      compute (p, 10, &st);
      g_assert_cmpuint (st.clock_rate, ==, cases[c].clock);
      g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 0.1 * 15.0 / 16.0 + 0.1, 1e-9);
    }
}

static void
test_clock_44100_integer_quirk (void)
{
  /* Wireshark divides by clock_rate/1000 in integers: 882 samples count as 882/44 ms. */
  g_autofree CsRtpPacket *p = regular_stream (2, 11, 882, 20.0, 1, 0);
  CsRtpStats st;

  compute (p, 2, &st);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, (882.0 / 44.0 - 20.0) / 16.0, 1e-9);
}

static void
test_comfort_noise_excluded (void)
{
  static const Hand h[] = {
    { 0, 1, 0, 8, 0 },       { 20, 2, 160, 8, 0 },    { 40, 3, 320, 13, 0 },
    { 1000, 4, 8000, 8, 0 }, { 1020, 5, 8160, 8, 0 }, /* resumes after silence */
  };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  CsRtpStats st;

  compute (p, G_N_ELEMENTS (h), &st);
  g_assert_cmpuint (st.comfort_noise_packets, ==, 1);
  /* the CN packet and the one after it stay out of the delta statistics */
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.min_delta_ms, 20.0, 1e-9);
  g_assert_cmpuint (st.payload_type_changes, ==, 0);
}

static void
test_telephone_event_excluded (void)
{
  static const Hand h[] = {
    { 0, 1, 0, 8, 0 },      { 20, 2, 160, 8, 0 },   { 40, 3, 320, 101, 1 },
    { 57, 4, 320, 101, 0 }, { 80, 5, 320, 101, 0 }, { 100, 6, 800, 8, 0 },
  };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  g_autoptr (GArray) series = NULL;
  CsRtpClockMap clocks;
  CsRtpStats st;

  compute (p, G_N_ELEMENTS (h), &st);
  g_assert_cmpuint (st.telephone_event_packets, ==, 3);
  g_assert_cmpuint (st.marker_packets, ==, 1);
  /* As in Wireshark 4.0, the next audio packet's timestamp step counts from the
   * last audio packet (160) but its arrival from the last event packet (80 ms):
   * expected at 80 + 80 = 160 ms, came at 100: J = 60/16. */
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 60.0 / 16.0, 1e-9);

  cs_rtp_clock_map_init_static (&clocks);
  cs_rtp_clock_map_set_rtpmap (&clocks, 101, "telephone-event", 8000);
  series = cs_rtp_series_compute (p, G_N_ELEMENTS (h), &clocks, p[0].arrival_ns);
  /* event packets do not move the jitter (57 ms would otherwise add 3/16) */
  g_assert_true (g_array_index (series, CsRtpSeriesPoint, 3).flags & CS_RTP_SERIES_NOT_MEDIA);
  g_assert_cmpfloat_with_epsilon (g_array_index (series, CsRtpSeriesPoint, 3).jitter_ms, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (series, CsRtpSeriesPoint, 4).jitter_ms, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (series, CsRtpSeriesPoint, 3).delta_ms, 17.0, 1e-9);
}

static void
test_timestamp_backwards (void)
{
  static const Hand h[] = {
    { 0, 1, 1000, 8, 0 },
    { 20, 2, 1160, 8, 0 },
    { 40, 3, 500, 8, 0 },
    { 60, 4, 1480, 8, 0 },
  };
  g_autofree CsRtpPacket *p = hand_packets (h, G_N_ELEMENTS (h));
  CsRtpStats st;

  compute (p, G_N_ELEMENTS (h), &st);
  g_assert_cmpuint (st.wrong_timestamp_packets, ==, 1);
  g_assert_true (st.problem);
  g_assert_cmpint (st.lost, ==, 0);
  /* packet 4 is measured against packet 2 (the last in time sequence): 40 ms;
   * the backwards packet leaves the jitter alone. tshark 4.0.17: delta 20.000
   * 26.667 40.000, jitter 0.000 0.000 0.000, problem X. */
  g_assert_cmpfloat_with_epsilon (st.max_delta_ms, 40.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.mean_delta_ms, 80.0 / 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 0.0, 1e-9);
}

static void
test_timestamp_jump_forward (void)
{
  /* the sender jumps its timestamp by 1 s while packets keep 20 ms spacing */
  g_autofree CsRtpPacket *p = regular_stream (4, 8, 160, 20.0, 1, 0);
  CsRtpStats st;

  p[2].timestamp += 8000;
  p[3].timestamp += 8000;
  compute (p, 4, &st);
  g_assert_cmpfloat_with_epsilon (st.max_jitter_ms, 1000.0 / 16.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (st.last_skew_ms, 1000.0, 1e-9);
  g_assert_false (st.problem);
}

static void
test_single_and_empty (void)
{
  g_autofree CsRtpPacket *p = regular_stream (1, 0, 160, 20.0, 42, 0);
  CsRtpStats st;

  compute (p, 1, &st);
  g_assert_cmpuint (st.packets, ==, 1);
  g_assert_cmpuint (st.expected, ==, 1);
  g_assert_cmpint (st.lost, ==, 0);
  g_assert_cmpfloat (st.max_delta_ms, ==, 0.0);
  g_assert_cmpfloat (st.min_delta_ms, ==, 0.0);
  g_assert_cmpuint (st.first_frame, ==, 1);
  g_assert_cmpuint (st.last_frame, ==, 1);

  compute (p, 0, &st);
  g_assert_cmpuint (st.packets, ==, 0);
  g_assert_cmpuint (st.expected, ==, 0);
}

static void
test_clock_map_rtpmap (void)
{
  CsRtpClockMap clocks;

  cs_rtp_clock_map_init_static (&clocks);
  g_assert_cmpuint (clocks.clock_rate_by_pt[0], ==, 8000);
  g_assert_cmpuint (clocks.clock_rate_by_pt[9], ==, 8000);
  g_assert_cmpuint (clocks.clock_rate_by_pt[34], ==, 90000);
  g_assert_cmpuint (clocks.clock_rate_by_pt[96], ==, 0);
  g_assert_true (clocks.comfort_noise_pt[13]);
  /* static types keep Wireshark's clock whatever the SDP says */
  cs_rtp_clock_map_set_rtpmap (&clocks, 8, "PCMA", 16000);
  g_assert_cmpuint (clocks.clock_rate_by_pt[8], ==, 8000);
  cs_rtp_clock_map_set_rtpmap (&clocks, 96, "opus", 0);
  g_assert_cmpuint (clocks.clock_rate_by_pt[96], ==, 48000);
  cs_rtp_clock_map_set_rtpmap (&clocks, 100, "TELEPHONE-EVENT", 8000);
  g_assert_true (clocks.telephone_event_pt[100]);
  cs_rtp_clock_map_set_rtpmap (&clocks, 98, "AMR", 8000);
  g_assert_cmpuint (clocks.clock_rate_by_pt[98], ==, 8000);
}

/* A stream with every oddity, from a fixed pseudo-random sequence: loss, reordering,
 * duplicates, sequence and timestamp jumps, wraps, comfort noise, events, markers. */
static gsize
odd_stream (CsRtpPacket *p, gsize n, guint32 seed)
{
  guint32 x = seed;
  guint16 seq = (guint16) (65000 + seed * 37);
  guint32 ts = 0xfff00000u + seed;
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);

  for (gsize i = 0; i < n; i++)
    {
      guint r;

      x = x * 1664525u + 1013904223u;
      r = (x >> 8) % 1000;
      memset (&p[i], 0, sizeof p[i]);
      p[i].frame = (guint32) (2 * i + 1);
      p[i].payload_len = 160;
      p[i].payload_type = r < 15 ? 13 : r < 25 ? 101 : 0;
      p[i].flags = r % 61 == 0 ? CS_RTP_FLAG_MARKER : 0;
      if (r >= 30 && r < 50)
        seq += (guint16) (1 + r % 4); /* loss */
      else if (r >= 50 && r < 65)
        seq -= (guint16) (r % 3); /* duplicate or reordered */
      else if (r == 65)
        seq += 40000; /* a jump */
      if (r >= 70 && r < 80)
        ts += 8000; /* a timestamp jump */
      else if (r >= 80 && r < 85)
        ts -= 4000; /* and back */
      p[i].seq = seq++;
      p[i].timestamp = ts;
      ts += 160;
      t += 20000000 + (gint64) ((x >> 4) % 8000000) - 4000000;
      p[i].arrival_ns = t;
    }
  return n;
}

#define SAME_BITS(a, b, f) g_assert_true (memcmp (&(a).f, &(b).f, sizeof (a).f) == 0)

/* The whole-stream pass (a fast loop for the usual packets) and feeding one packet at a
 * time give the same bits, and its marks are what the per-packet steps show. */
static void
test_batch_equals_feed (void)
{
  CsRtpClockMap clocks;

  cs_rtp_clock_map_init_static (&clocks);
  cs_rtp_clock_map_set_rtpmap (&clocks, 101, "telephone-event", 8000);
  for (guint32 seed = 1; seed <= 40; seed++)
    {
      gsize n = 50 + seed * 50;
      g_autofree CsRtpPacket *p = g_new (CsRtpPacket, n);
      guint32 gap_frames[8], order_frames[8];
      CsRtpStepTable steps;
      CsRtpMarks m = { 8, gap_frames, order_frames };
      CsRtpAnalyser a;
      CsRtpStats batch, fed;
      g_autoptr (GArray) series = NULL;
      guint gaps = 0, n_gap = 0, n_order = 0;
      guint32 jitter_frame = 0;
      double peak = -1;
      double ms;

      odd_stream (p, n, seed);
      m.steps = &steps;
      cs_rtp_stats_compute_marks (p, n, &clocks, &batch, &m);
      cs_rtp_analyser_init (&a);
      for (gsize i = 0; i < n; i++)
        cs_rtp_analyser_feed (&a, &p[i], &clocks);
      cs_rtp_analyser_get_stats (&a, &fed);
      cs_rtp_analyser_clear (&a);
      /* the same steps counted, one by one or in the loop for usual packets */
      g_assert_cmpmem (&steps, sizeof steps, &a.steps, sizeof a.steps);
      fed.clock_rate = batch.clock_rate; /* set from the clock map by the batch call */
      SAME_BITS (batch, fed, packets);
      SAME_BITS (batch, fed, expected);
      SAME_BITS (batch, fed, lost);
      SAME_BITS (batch, fed, duplicates);
      SAME_BITS (batch, fed, out_of_order);
      SAME_BITS (batch, fed, sequence_errors);
      SAME_BITS (batch, fed, marker_packets);
      SAME_BITS (batch, fed, payload_type_changes);
      SAME_BITS (batch, fed, comfort_noise_packets);
      SAME_BITS (batch, fed, telephone_event_packets);
      SAME_BITS (batch, fed, wrong_timestamp_packets);
      SAME_BITS (batch, fed, min_delta_ms);
      SAME_BITS (batch, fed, mean_delta_ms);
      SAME_BITS (batch, fed, max_delta_ms);
      SAME_BITS (batch, fed, max_delta_frame);
      SAME_BITS (batch, fed, min_jitter_ms);
      SAME_BITS (batch, fed, mean_jitter_ms);
      SAME_BITS (batch, fed, max_jitter_ms);
      SAME_BITS (batch, fed, last_jitter_ms);
      SAME_BITS (batch, fed, max_skew_ms);
      SAME_BITS (batch, fed, last_skew_ms);
      SAME_BITS (batch, fed, clock_drift_ms);
      SAME_BITS (batch, fed, mean_bitrate_kbps);
      SAME_BITS (batch, fed, problem);
      SAME_BITS (batch, fed, last_frame);
      g_assert_cmpuint (batch.sequence_errors, >, 0);
      g_assert_cmpuint (batch.duplicates, >, 0);

      series = cs_rtp_series_compute (p, n, &clocks, p[0].arrival_ns);
      for (guint i = 0; i < series->len; i++)
        {
          const CsRtpSeriesPoint *pt = &g_array_index (series, CsRtpSeriesPoint, i);

          if (pt->jitter_ms > peak)
            {
              peak = pt->jitter_ms;
              jitter_frame = pt->frame;
            }
          if (pt->lost_before > 0)
            {
              gaps++;
              if (n_gap < 8)
                g_assert_cmpuint (gap_frames[n_gap++], ==, pt->frame);
            }
          /* packets out of sequence: a jump forward is a gap (above), not one of them */
          if ((pt->flags & (CS_RTP_SERIES_DUPLICATE | CS_RTP_SERIES_OUT_OF_ORDER)) && n_order < 8)
            g_assert_cmpuint (order_frames[n_order++], ==, pt->frame);
        }
      g_assert_cmpuint (m.gaps, ==, gaps);
      g_assert_cmpuint (m.n_gap_frames, ==, n_gap);
      g_assert_cmpuint (m.n_order_frames, ==, n_order);
      g_assert_cmpuint (m.max_jitter_frame, ==, jitter_frame);
      g_assert_true (m.mixed_payload_types);
      /* the step table gives the packetisation the packets give */
      g_assert_true (cs_mos_packetisation_from_steps (&steps, 8000, &ms));
      g_assert_cmpfloat (ms, ==, cs_mos_packetisation_ms (p, n, 8000));
    }
}

/* Passes reuse one window of seen sequence numbers per thread: whatever the streams before
 * (jumps, wraps, reordering), a stream's stats are those of a fresh window. */
static void
test_window_reused_clean (void)
{
  CsRtpClockMap clocks;
  CsRtpPacket probe[300];
  CsRtpStats fresh, again;

  cs_rtp_clock_map_init_static (&clocks);
  /* every seq below 65535 once, in order, then every one again out of order */
  memset (probe, 0, sizeof probe);
  for (guint i = 0; i < 300; i++)
    {
      probe[i].frame = i + 1;
      probe[i].seq = (guint16) (i < 200 ? 65400 + i : 65400 + 3 * (i - 200));
      probe[i].timestamp = 160u * i;
      probe[i].arrival_ns = (gint64) i * 20000000;
    }
  cs_rtp_stats_compute (probe, 300, &clocks, &fresh);
  for (guint32 seed = 1; seed <= 40; seed++)
    {
      gsize n = 50 + seed * 50;
      g_autofree CsRtpPacket *p = g_new (CsRtpPacket, n);
      CsRtpStats st;

      odd_stream (p, n, seed);
      for (gsize i = 0; i < n; i++)
        p[i].seq += (guint16) (seed * 1637);
      cs_rtp_stats_compute (p, n, &clocks, &st);
      cs_rtp_stats_compute (probe, 300, &clocks, &again);
      g_assert_cmpmem (&fresh, sizeof fresh, &again, sizeof again);
    }
  g_assert_cmpuint (fresh.duplicates, ==, 67);
  g_assert_cmpuint (fresh.out_of_order, ==, 0);
}

/* The pass over packed records gives what the pass over the array gives: stats, marks, steps
 * and the jitter buffer fed with them, on clean streams and odd ones. */
static void
test_packed_equals_array (void)
{
  CsRtpClockMap clocks;
  guint late = 0;

  cs_rtp_clock_map_init_static (&clocks);
  cs_rtp_clock_map_set_rtpmap (&clocks, 101, "telephone-event", 8000);
  for (guint32 seed = 1; seed <= 60; seed++)
    {
      gsize n = seed * 37 % 700 + 1;
      g_autofree CsRtpPacket *p = g_new (CsRtpPacket, n);
      CsRtpPack pack = { 0 };
      guint32 frames[4][8];
      CsRtpStepTable steps[2];
      CsRtpMarks m[2] = { { 8, frames[0], frames[1] }, { 8, frames[2], frames[3] } };
      CsRtpStats st[2];
      CsJitterBuffer jb[2];
      CsJitterBufferResult r[2];

      odd_stream (p, n, seed);
      if (seed % 3 == 0) /* clean: one payload type, no marker, nothing lost */
        for (gsize i = 0; i < n; i++)
          {
            p[i].payload_type = 0;
            p[i].flags = 0;
            p[i].seq = (guint16) (65000 + seed * 7 + i);
            p[i].timestamp = 0x7fffff00u + 160u * (guint32) i; /* crosses 2^31 */
          }
      if (seed % 2 == 0) /* late packets, and underruns of the jitter buffer */
        for (gsize i = 0; i < n; i++)
          if ((i * seed) % 11 < 3 + seed % 4)
            p[i].arrival_ns += (gint64) ((i * 7 + seed) % 90) * 1000000;
      /* frame steps of every packed size (1 to 4 bytes of change) */
      for (gsize i = 1; i < n; i++)
        p[i].frame = p[i - 1].frame + 1 + (guint32) ((i * seed * 2654435761u) >> (8 * (i % 4)));
      cs_rtp_pack_append (&pack, p, n);
      for (guint k = 0; k < 2; k++)
        {
          m[k].steps = &steps[k];
          cs_jitter_buffer_init (&jb[k], 0, 8000, NULL);
        }
      cs_rtp_stats_compute_with_buffer (p, n, &clocks, &st[0], &m[0], &jb[0]);
      cs_rtp_stats_compute_packed (pack.data, pack.n_packets, &clocks, &st[1], &m[1], &jb[1]);
      g_assert_cmpmem (&st[0], sizeof st[0], &st[1], sizeof st[1]);
      g_assert_cmpmem (&steps[0], sizeof steps[0], &steps[1], sizeof steps[1]);
      g_assert_cmpuint (m[0].n_gap_frames, ==, m[1].n_gap_frames);
      g_assert_cmpuint (m[0].n_order_frames, ==, m[1].n_order_frames);
      g_assert_cmpmem (frames[0], m[0].n_gap_frames * 4, frames[2], m[1].n_gap_frames * 4);
      g_assert_cmpmem (frames[1], m[0].n_order_frames * 4, frames[3], m[1].n_order_frames * 4);
      g_assert_cmpuint (m[0].max_jitter_frame, ==, m[1].max_jitter_frame);
      g_assert_cmpuint (m[0].mixed_payload_types, ==, m[1].mixed_payload_types);
      for (guint k = 0; k < 2; k++)
        {
          cs_jitter_buffer_finish (&jb[k], &r[k]);
          cs_jitter_buffer_clear (&jb[k]);
        }
      g_assert_cmpmem (&r[0], sizeof r[0], &r[1], sizeof r[1]);
      late += r[0].discarded_late;
      cs_rtp_pack_clear (&pack);
    }
  g_assert_cmpuint (late, >, 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp-metrics/tshark-samples", test_against_tshark);
  g_test_add_func ("/rtp-metrics/tshark-exact-digits", test_tshark_exact_digits);
  g_test_add_func ("/rtp-metrics/perfect-stream", test_perfect_stream);
  g_test_add_func ("/rtp-metrics/seq-wrap", test_seq_wrap);
  g_test_add_func ("/rtp-metrics/reordering", test_reordering);
  g_test_add_func ("/rtp-metrics/duplicates", test_duplicates);
  g_test_add_func ("/rtp-metrics/jitter-by-hand", test_jitter_by_hand);
  g_test_add_func ("/rtp-metrics/clock-rates", test_clock_rates);
  g_test_add_func ("/rtp-metrics/clock-44100-quirk", test_clock_44100_integer_quirk);
  g_test_add_func ("/rtp-metrics/comfort-noise", test_comfort_noise_excluded);
  g_test_add_func ("/rtp-metrics/telephone-event", test_telephone_event_excluded);
  g_test_add_func ("/rtp-metrics/timestamp-backwards", test_timestamp_backwards);
  g_test_add_func ("/rtp-metrics/timestamp-jump", test_timestamp_jump_forward);
  g_test_add_func ("/rtp-metrics/single-and-empty", test_single_and_empty);
  g_test_add_func ("/rtp-metrics/clock-map", test_clock_map_rtpmap);
  g_test_add_func ("/rtp-metrics/batch-equals-feed", test_batch_equals_feed);
  g_test_add_func ("/rtp-metrics/window-reused-clean", test_window_reused_clean);
  g_test_add_func ("/rtp-metrics/packed-equals-array", test_packed_equals_array);
  return g_test_run ();
}
