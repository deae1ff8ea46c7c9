#include "libanalysis/model/runtime_version.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfa {
namespace {

struct RuntimeVersionEntry {
  int32_t builtin_code;
  int32_t version;
  std::string_view runtime_version;
};

// The facts of FindMinimumRuntimeVersionForOp in google-ai-edge/LiteRT
// tflite/tools/versioning/runtime_version.cc (commit 05215c291e48a7c2fe164566cedd678b80e9eb8c),
// sorted by builtin code (the schema's BuiltinOperator value), then op version.
constexpr RuntimeVersionEntry kRuntimeVersions[] = {
    {0, 1, "1.5.0"},     // ADD
    {0, 2, "1.14.0"},    // ADD
    {0, 3, "2.4.0"},     // ADD
    {0, 4, "2.6.0"},     // ADD
    {0, 5, "2.13.0"},    // ADD
    {1, 1, "1.5.0"},     // AVERAGE_POOL_2D
    {1, 2, "1.14.0"},    // AVERAGE_POOL_2D
    {1, 3, "2.3.0"},     // AVERAGE_POOL_2D
    {2, 1, "1.5.0"},     // CONCATENATION
    {2, 2, "1.14.0"},    // CONCATENATION
    {2, 3, "2.3.0"},     // CONCATENATION
    {2, 4, "2.14.0"},    // CONCATENATION
    {3, 1, "1.5.0"},     // CONV_2D
    {3, 2, "1.14.0"},    // CONV_2D
    {3, 3, "1.14.0"},    // CONV_2D
    {3, 4, "2.3.0"},     // CONV_2D
    {3, 5, "2.4.0"},     // CONV_2D
    {3, 6, "2.9.0"},     // CONV_2D
    {3, 7, "2.11.0"},    // CONV_2D
    {3, 8, "2.15.0"},    // CONV_2D
    {4, 1, "1.5.0"},     // DEPTHWISE_CONV_2D
    {4, 2, "1.12.0"},    // DEPTHWISE_CONV_2D
    {4, 3, "1.14.0"},    // DEPTHWISE_CONV_2D
    {4, 4, "2.2.0"},     // DEPTHWISE_CONV_2D
    {4, 5, "2.3.0"},     // DEPTHWISE_CONV_2D
    {4, 6, "2.3.0"},     // DEPTHWISE_CONV_2D
    {4, 7, "2.11.0"},    // DEPTHWISE_CONV_2D
    {5, 1, "2.1.0"},     // DEPTH_TO_SPACE
    {5, 2, "2.5.0"},     // DEPTH_TO_SPACE
    {6, 1, "1.13.1"},    // DEQUANTIZE
    {6, 2, "1.14.0"},    // DEQUANTIZE
    {6, 3, "1.15.0"},    // DEQUANTIZE
    {6, 4, "2.2.0"},     // DEQUANTIZE
    {6, 5, "2.7.0"},     // DEQUANTIZE
    {6, 6, "2.18.0"},    // DEQUANTIZE
    {7, 1, "1.13.0"},    // EMBEDDING_LOOKUP
    {7, 2, "1.14.0"},    // EMBEDDING_LOOKUP
    {7, 3, "1.14.0"},    // EMBEDDING_LOOKUP
    {7, 4, "2.18.0"},    // EMBEDDING_LOOKUP
    {8, 1, "1.9.0"},     // FLOOR
    {9, 1, "1.5.0"},     // FULLY_CONNECTED
    {9, 2, "1.10.0"},    // FULLY_CONNECTED
    {9, 3, "1.14.0"},    // FULLY_CONNECTED
    {9, 4, "1.14.0"},    // FULLY_CONNECTED
    {9, 5, "2.0.0"},     // FULLY_CONNECTED
    {9, 6, "2.1.0"},     // FULLY_CONNECTED
    {9, 7, "2.3.0"},     // FULLY_CONNECTED
    {9, 8, "2.3.0"},     // FULLY_CONNECTED
    {9, 9, "2.3.0"},     // FULLY_CONNECTED
    {9, 10, "2.11.0"},   // FULLY_CONNECTED
    {9, 11, "2.15.0"},   // FULLY_CONNECTED
    {9, 12, "2.17.0"},   // FULLY_CONNECTED
    {9, 13, "2.18.0"},   // FULLY_CONNECTED
    {10, 1, "1.5.0"},    // HASHTABLE_LOOKUP
    {11, 1, "1.5.0"},    // L2_NORMALIZATION
    {11, 2, "1.14.0"},   // L2_NORMALIZATION
    {12, 1, "1.5.0"},    // L2_POOL_2D
    {13, 1, "1.5.0"},    // LOCAL_RESPONSE_NORMALIZATION
    {14, 1, "1.14.0"},   // LOGISTIC
    {14, 2, "1.14.0"},   // LOGISTIC
    {14, 3, "2.3.0"},    // LOGISTIC
    {15, 1, "1.5.0"},    // LSH_PROJECTION
    {16, 1, "1.7.0"},    // LSTM
    {16, 2, "1.10.0"},   // LSTM
    {16, 3, "1.14.0"},   // LSTM
    {16, 4, "2.3.0"},    // LSTM
    {17, 1, "1.5.0"},    // MAX_POOL_2D
    {17, 2, "1.14.0"},   // MAX_POOL_2D
    {17, 3, "2.3.0"},    // MAX_POOL_2D
    {18, 1, "1.5.0"},    // MUL
    {18, 2, "1.14.0"},   // MUL
    {18, 3, "1.15.0"},   // MUL
    {18, 4, "2.3.0"},    // MUL
    {18, 5, "2.6.0"},    // MUL
    {18, 6, "2.11.0"},   // MUL
    {18, 7, "2.13.0"},   // MUL
    {19, 1, "1.5.0"},    // RELU
    {19, 2, "2.1.0"},    // RELU
    {19, 3, "2.5.0"},    // RELU
    {20, 1, "1.5.0"},    // RELU_N1_TO_1
    {21, 1, "1.5.0"},    // RELU6
    {21, 2, "1.14.0"},   // RELU6
    {21, 3, "2.5.0"},    // RELU6
    {22, 1, "1.5.0"},    // RESHAPE
    {23, 1, "1.7.0"},    // RESIZE_BILINEAR
    {23, 2, "1.14.0"},   // RESIZE_BILINEAR
    {23, 3, "2.2.0"},    // RESIZE_BILINEAR
    {23, 4, "2.5.0"},    // RESIZE_BILINEAR
    {24, 1, "1.5.0"},    // RNN
    {24, 2, "1.14.0"},   // RNN
    {24, 3, "2.3.0"},    // RNN
    {25, 1, "1.5.0"},    // SOFTMAX
    {25, 2, "1.14.0"},   // SOFTMAX
    {25, 3, "2.3.0"},    // SOFTMAX
    {26, 1, "1.5.0"},    // SPACE_TO_DEPTH
    {26, 2, "1.14.0"},   // SPACE_TO_DEPTH
    {27, 1, "1.5.0"},    // SVDF
    {27, 2, "1.14.0"},   // SVDF
    {27, 3, "2.2.0"},    // SVDF
    {27, 4, "2.3.0"},    // SVDF
    {28, 1, "1.14.0"},   // TANH
    {28, 2, "1.14.0"},   // TANH
    {28, 3, "2.3.0"},    // TANH
    {30, 1, "1.5.0"},    // SKIP_GRAM
    {33, 1, "1.5.0"},    // EMBEDDING_LOOKUP_SPARSE
    {34, 1, "1.5.0"},    // PAD
    {34, 2, "1.14.0"},   // PAD
    {34, 3, "2.4.0"},    // PAD
    {34, 4, "2.6.0"},    // PAD
    {35, 1, "1.14.0"},   // UNIDIRECTIONAL_SEQUENCE_RNN
    {35, 2, "1.14.0"},   // UNIDIRECTIONAL_SEQUENCE_RNN
    {35, 3, "2.3.0"},    // UNIDIRECTIONAL_SEQUENCE_RNN
    {36, 1, "1.6.0"},    // GATHER
    {36, 2, "1.14.0"},   // GATHER
    {36, 3, "1.15.0"},   // GATHER
    {36, 4, "2.4.0"},    // GATHER
    {36, 5, "2.5.0"},    // GATHER
    {36, 6, "2.13.0"},   // GATHER
    {36, 7, "2.15.0"},   // GATHER
    {37, 1, "1.6.0"},    // BATCH_TO_SPACE_ND
    {37, 2, "1.14.0"},   // BATCH_TO_SPACE_ND
    {37, 3, "2.3.0"},    // BATCH_TO_SPACE_ND
    {37, 4, "2.12.0"},   // BATCH_TO_SPACE_ND
    {38, 1, "1.6.0"},    // SPACE_TO_BATCH_ND
    {38, 2, "1.14.0"},   // SPACE_TO_BATCH_ND
    {38, 3, "2.3.0"},    // SPACE_TO_BATCH_ND
    {38, 4, "2.12.0"},   // SPACE_TO_BATCH_ND
    {39, 1, "1.6.0"},    // TRANSPOSE
    {39, 2, "1.14.0"},   // TRANSPOSE
    {39, 3, "1.15.0"},   // TRANSPOSE
    {39, 4, "2.3.0"},    // TRANSPOSE
    {39, 5, "2.4.0"},    // TRANSPOSE
    {39, 6, "2.12.0"},   // TRANSPOSE
    {39, 7, "2.14.4"},   // TRANSPOSE
    {40, 1, "1.6.0"},    // MEAN
    {40, 2, "1.14.0"},   // MEAN
    {40, 3, "2.4.0"},    // MEAN
    {41, 1, "1.6.0"},    // SUB
    {41, 2, "1.14.0"},   // SUB
    {41, 3, "2.3.0"},    // SUB
    {41, 4, "2.4.0"},    // SUB
    {41, 5, "2.4.0"},    // SUB
    {42, 1, "1.6.0"},    // DIV
    {42, 2, "2.3.0"},    // DIV
    {43, 1, "1.6.0"},    // SQUEEZE
    {43, 2, "2.5.0"},    // SQUEEZE
    {44, 1, "1.13.1"},   // UNIDIRECTIONAL_SEQUENCE_LSTM
    {44, 2, "1.14.0"},   // UNIDIRECTIONAL_SEQUENCE_LSTM
    {44, 3, "2.3.0"},    // UNIDIRECTIONAL_SEQUENCE_LSTM
    {44, 4, "2.12.0"},   // UNIDIRECTIONAL_SEQUENCE_LSTM
    {45, 1, "1.6.0"},    // STRIDED_SLICE
    {45, 2, "1.14.0"},   // STRIDED_SLICE
    {45, 3, "2.1.0"},    // STRIDED_SLICE
    {45, 4, "2.2.0"},    // STRIDED_SLICE
    {45, 5, "2.5.0"},    // STRIDED_SLICE
    {45, 6, "2.6.0"},    // STRIDED_SLICE
    {45, 7, "2.14.0"},   // STRIDED_SLICE
    {45, 8, "2.14.0"},   // STRIDED_SLICE
    {46, 1, "1.14.0"},   // BIDIRECTIONAL_SEQUENCE_RNN
    {46, 2, "1.14.0"},   // BIDIRECTIONAL_SEQUENCE_RNN
    {46, 3, "2.3.0"},    // BIDIRECTIONAL_SEQUENCE_RNN
    {47, 1, "1.7.0"},    // EXP
    {47, 2, "2.12.0"},   // EXP
    {48, 1, "1.7.0"},    // TOPK_V2
    {48, 2, "1.14.0"},   // TOPK_V2
    {48, 3, "2.13.0"},   // TOPK_V2
    {49, 1, "1.5.0"},    // SPLIT
    {49, 2, "1.14.0"},   // SPLIT
    {49, 3, "1.14.0"},   // SPLIT
    {49, 4, "2.3.0"},    // SPLIT
    {50, 1, "1.14.0"},   // LOG_SOFTMAX
    {50, 2, "1.14.0"},   // LOG_SOFTMAX
    {52, 1, "1.14.0"},   // BIDIRECTIONAL_SEQUENCE_LSTM
    {52, 2, "1.14.0"},   // BIDIRECTIONAL_SEQUENCE_LSTM
    {52, 3, "1.14.0"},   // BIDIRECTIONAL_SEQUENCE_LSTM
    {53, 1, "1.5.0"},    // CAST
    {53, 2, "2.7.0"},    // CAST
    {53, 3, "2.8.0"},    // CAST
    {53, 4, "2.9.0"},    // CAST
    {53, 5, "2.12.0"},   // CAST
    {53, 6, "2.15.0"},   // CAST
    {53, 7, "2.17.0"},   // CAST
    {54, 1, "1.8.0"},    // PRELU
    {55, 1, "1.14.0"},   // MAXIMUM
    {55, 2, "1.14.0"},   // MAXIMUM
    {55, 3, "2.3.0"},    // MAXIMUM
    {55, 4, "2.3.0"},    // MAXIMUM
    {56, 1, "1.9.0"},    // ARG_MAX
    {56, 2, "1.14.0"},   // ARG_MAX
    {56, 3, "2.9.0"},    // ARG_MAX
    {57, 1, "1.14.0"},   // MINIMUM
    {57, 2, "1.14.0"},   // MINIMUM
    {57, 3, "2.3.0"},    // MINIMUM
    {57, 4, "2.3.0"},    // MINIMUM
    {58, 1, "1.14.0"},   // LESS
    {58, 2, "1.14.0"},   // LESS
    {58, 3, "2.13.0"},   // LESS
    {59, 1, "1.9.0"},    // NEG
    {60, 1, "1.9.0"},    // PADV2
    {60, 2, "1.14.0"},   // PADV2
    {60, 3, "2.4.0"},    // PADV2
    {60, 4, "2.6.0"},    // PADV2
    {61, 1, "1.14.0"},   // GREATER
    {61, 2, "1.14.0"},   // GREATER
    {62, 1, "1.14.0"},   // GREATER_EQUAL
    {62, 2, "1.14.0"},   // GREATER_EQUAL
    {62, 3, "2.13.0"},   // GREATER_EQUAL
    {63, 1, "1.14.0"},   // LESS_EQUAL
    {63, 2, "1.14.0"},   // LESS_EQUAL
    {64, 1, "1.14.0"},   // SELECT
    {64, 2, "1.14.0"},   // SELECT
    {64, 3, "2.12.0"},   // SELECT
    {64, 4, "2.12.0"},   // SELECT
    {65, 1, "1.14.0"},   // SLICE
    {65, 2, "1.14.0"},   // SLICE
    {65, 3, "1.14.0"},   // SLICE
    {65, 4, "2.4.0"},    // SLICE
    {65, 5, "2.5.0"},    // SLICE
    {65, 6, "2.14.0"},   // SLICE
    {66, 1, "1.9.0"},    // SIN
    {67, 1, "1.9.0"},    // TRANSPOSE_CONV
    {67, 2, "2.2.0"},    // TRANSPOSE_CONV
    {67, 3, "2.3.0"},    // TRANSPOSE_CONV
    {67, 4, "2.13.0"},   // TRANSPOSE_CONV
    {67, 5, "2.15.0"},   // TRANSPOSE_CONV
    {68, 1, "1.9.0"},    // SPARSE_TO_DENSE
    {68, 2, "1.14.0"},   // SPARSE_TO_DENSE
    {68, 3, "1.15.0"},   // SPARSE_TO_DENSE
    {69, 1, "1.10.1"},   // TILE
    {69, 2, "2.2.0"},    // TILE
    {69, 3, "2.8.0"},    // TILE
    {70, 1, "1.10.0"},   // EXPAND_DIMS
    {71, 1, "1.14.0"},   // EQUAL
    {71, 2, "1.14.0"},   // EQUAL
    {71, 3, "2.3.0"},    // EQUAL
    {71, 4, "2.13.0"},   // EQUAL
    {72, 1, "1.14.0"},   // NOT_EQUAL
    {72, 2, "1.14.0"},   // NOT_EQUAL
    {72, 3, "2.3.0"},    // NOT_EQUAL
    {73, 1, "1.14.0"},   // LOG
    {73, 2, "2.15.0"},   // LOG
    {74, 1, "1.10.0"},   // SUM
    {74, 2, "1.15.0"},   // SUM
    {75, 1, "1.10.0"},   // SQRT
    {76, 1, "1.10.0"},   // RSQRT
    {76, 2, "2.5.0"},    // RSQRT
    {76, 3, "2.15.0"},   // RSQRT
    {77, 1, "1.10.0"},   // SHAPE
    {78, 1, "1.10.0"},   // POW
    {79, 1, "1.9.0"},    // ARG_MIN
    {79, 2, "1.14.0"},   // ARG_MIN
    {79, 3, "2.9.0"},    // ARG_MIN
    {80, 1, "1.5.0"},    // FAKE_QUANT
    {80, 2, "1.10.0"},   // FAKE_QUANT
    {81, 1, "1.11.0"},   // REDUCE_PROD
    {81, 2, "2.6.0"},    // REDUCE_PROD
    {82, 1, "1.11.0"},   // REDUCE_MAX
    {82, 2, "1.14.0"},   // REDUCE_MAX
    {82, 3, "2.5.0"},    // REDUCE_MAX
    {83, 1, "1.11.0"},   // PACK
    {83, 2, "1.14.0"},   // PACK
    {83, 3, "2.3.0"},    // PACK
    {83, 4, "2.13.0"},   // PACK
    {84, 1, "1.11.0"},   // LOGICAL_OR
    {85, 1, "1.11.0"},   // ONE_HOT
    {86, 1, "1.11.0"},   // LOGICAL_AND
    {87, 1, "1.11.0"},   // LOGICAL_NOT
    {88, 1, "1.11.0"},   // UNPACK
    {88, 2, "1.14.0"},   // UNPACK
    {88, 3, "2.2.0"},    // UNPACK
    {88, 4, "2.3.0"},    // UNPACK
    {89, 1, "1.11.0"},   // REDUCE_MIN
    {89, 2, "1.14.0"},   // REDUCE_MIN
    {89, 3, "2.5.0"},    // REDUCE_MIN
    {90, 1, "1.14.0"},   // FLOOR_DIV
    {90, 2, "1.14.0"},   // FLOOR_DIV
    {90, 3, "2.13.0"},   // FLOOR_DIV
    {91, 1, "1.11.0"},   // REDUCE_ANY
    {92, 1, "1.12.0"},   // SQUARE
    {93, 1, "1.12.0"},   // ZEROS_LIKE
    {94, 1, "1.13.0"},   // FILL
    {94, 2, "2.3.0"},    // FILL
    {94, 3, "2.5.0"},    // FILL
    {94, 4, "2.12.0"},   // FILL
    {95, 1, "1.13.0"},   // FLOOR_MOD
    {95, 2, "2.13.0"},   // FLOOR_MOD
    {96, 1, "1.13.0"},   // RANGE
    {96, 2, "2.14.0"},   // RANGE
    {97, 1, "1.13.1"},   // RESIZE_NEAREST_NEIGHBOR
    {97, 2, "1.14.0"},   // RESIZE_NEAREST_NEIGHBOR
    {97, 3, "2.3.0"},    // RESIZE_NEAREST_NEIGHBOR
    {97, 4, "2.4.0"},    // RESIZE_NEAREST_NEIGHBOR
    {98, 1, "1.13.1"},   // LEAKY_RELU
    {98, 2, "2.3.0"},    // LEAKY_RELU
    {99, 1, "1.13.1"},   // SQUARED_DIFFERENCE
    {99, 2, "2.5.0"},    // SQUARED_DIFFERENCE
    {100, 1, "1.13.1"},  // MIRROR_PAD
    {100, 2, "2.3.0"},   // MIRROR_PAD
    {100, 3, "2.12.0"},  // MIRROR_PAD
    {101, 1, "1.13.0"},  // ABS
    {101, 2, "2.4.0"},   // ABS
    {101, 3, "2.5.0"},   // ABS
    {101, 4, "2.6.0"},   // ABS
    {101, 5, "2.12.0"},  // ABS
    {102, 1, "1.13.1"},  // SPLIT_V
    {102, 2, "2.3.0"},   // SPLIT_V
    {103, 1, "1.14.0"},  // UNIQUE
    {104, 1, "1.14.0"},  // CEIL
    {105, 1, "1.14.0"},  // REVERSE_V2
    {105, 2, "2.2.0"},   // REVERSE_V2
    {105, 3, "2.5.0"},   // REVERSE_V2
    {106, 1, "1.14.0"},  // ADD_N
    {107, 1, "1.14.0"},  // GATHER_ND
    {107, 2, "2.3.0"},   // GATHER_ND
    {107, 3, "2.5.0"},   // GATHER_ND
    {107, 4, "2.13.0"},  // GATHER_ND
    {107, 5, "2.16.0"},  // GATHER_ND
    {108, 1, "1.14.0"},  // COS
    {109, 1, "1.14.0"},  // WHERE
    {109, 2, "2.8.0"},   // WHERE
    {110, 1, "1.14.0"},  // RANK
    {111, 1, "1.14.0"},  // ELU
    {112, 1, "1.14.0"},  // REVERSE_SEQUENCE
    {113, 1, "1.14.0"},  // MATRIX_DIAG
    {114, 1, "1.14.0"},  // QUANTIZE
    {114, 2, "1.15.0"},  // QUANTIZE
    {114, 3, "2.7.0"},   // QUANTIZE
    {115, 1, "1.14.0"},  // MATRIX_SET_DIAG
    {116, 1, "1.14.0"},  // ROUND
    {117, 1, "1.15.0"},  // HARD_SWISH
    {118, 1, "1.15.0"},  // IF
    {119, 1, "1.15.0"},  // WHILE
    {120, 1, "2.1.0"},   // NON_MAX_SUPPRESSION_V4
    {121, 1, "2.1.0"},   // NON_MAX_SUPPRESSION_V5
    {122, 1, "2.1.0"},   // SCATTER_ND
    {123, 1, "2.2.0"},   // SELECT_V2
    {123, 2, "2.12.0"},  // SELECT_V2
    {124, 1, "2.2.0"},   // DENSIFY
    {125, 1, "2.2.0"},   // SEGMENT_SUM
    {126, 1, "2.3.0"},   // BATCH_MATMUL
    {126, 2, "2.3.0"},   // BATCH_MATMUL
    {126, 3, "2.4.0"},   // BATCH_MATMUL
    {126, 4, "2.5.0"},   // BATCH_MATMUL
    {128, 1, "2.4.0"},   // CUMSUM
    {129, 1, "2.5.0"},   // CALL_ONCE
    {130, 2, "2.5.0"},   // BROADCAST_TO
    {130, 3, "2.5.0"},   // BROADCAST_TO
    {131, 1, "2.5.0"},   // RFFT2D
    {132, 1, "2.5.0"},   // CONV_3D
    {133, 1, "2.5.0"},   // IMAG
    {134, 1, "2.5.0"},   // REAL
    {135, 1, "2.5.0"},   // COMPLEX_ABS
    {136, 1, "2.5.0"},   // HASHTABLE
    {137, 1, "2.5.0"},   // HASHTABLE_FIND
    {138, 1, "2.5.0"},   // HASHTABLE_IMPORT
    {139, 1, "2.5.0"},   // HASHTABLE_SIZE
    {140, 1, "2.6.0"},   // REDUCE_ALL
    {141, 1, "2.6.0"},   // CONV_3D_TRANSPOSE
    {142, 1, "2.6.0"},   // VAR_HANDLE
    {143, 1, "2.6.0"},   // READ_VARIABLE
    {144, 1, "2.6.0"},   // ASSIGN_VARIABLE
    {145, 1, "2.6.0"},   // BROADCAST_ARGS
    {146, 1, "2.8.0"},   // RANDOM_STANDARD_NORMAL
    {147, 1, "2.8.0"},   // BUCKETIZE
    {148, 1, "2.8.0"},   // RANDOM_UNIFORM
    {149, 1, "2.8.0"},   // MULTINOMIAL
    {150, 1, "2.9.0"},   // GELU
    {150, 2, "2.9.0"},   // GELU
    {151, 1, "2.9.0"},   // DYNAMIC_UPDATE_SLICE
    {151, 2, "2.17.0"},  // DYNAMIC_UPDATE_SLICE
    {151, 3, "2.19.0"},  // DYNAMIC_UPDATE_SLICE
    {151, 4, "2.20.0"},  // DYNAMIC_UPDATE_SLICE
    {152, 1, "2.10.0"},  // RELU_0_TO_1
    {153, 1, "2.10.0"},  // UNSORTED_SEGMENT_PROD
    {154, 1, "2.10.0"},  // UNSORTED_SEGMENT_MAX
    {155, 1, "2.10.0"},  // UNSORTED_SEGMENT_SUM
    {156, 1, "2.10.0"},  // ATAN2
    {157, 1, "2.11.0"},  // UNSORTED_SEGMENT_MIN
    {158, 1, "2.11.0"},  // SIGN
    {158, 2, "2.12.0"},  // SIGN
    {159, 1, "2.13.0"},  // BITCAST
    {160, 1, "2.13.0"},  // BITWISE_XOR
    {161, 1, "2.13.0"},  // RIGHT_SHIFT
    {163, 1, "2.16.0"},  // STABLEHLO_ADD
    {165, 1, "2.16.0"},  // STABLEHLO_MULTIPLY
    {166, 1, "2.16.0"},  // STABLEHLO_MAXIMUM
    {176, 1, "2.17.0"},  // STABLEHLO_AND
    {181, 1, "2.16.0"},  // STABLEHLO_MINIMUM
    {190, 1, "2.15.0"},  // STABLEHLO_SCATTER
    {195, 1, "2.16.0"},  // STABLEHLO_PAD
    {198, 1, "2.16.0"},  // STABLEHLO_REDUCE_WINDOW
    {201, 1, "2.16.0"},  // STABLEHLO_GATHER
    {203, 1, "2.15.0"},  // DILATE
    {204, 1, "2.15.0"},  // STABLEHLO_RNG_BIT_GENERATOR
    {205, 1, "2.15.0"},  // REDUCE_WINDOW
    {206, 1, "2.17.0"},  // STABLEHLO_COMPOSITE
    {207, 1, "2.17.0"},  // STABLEHLO_SHIFT_LEFT
    {208, 1, "2.17.0"},  // STABLEHLO_CBRT
    {209, 1, "2.17.0"},  // STABLEHLO_CASE
};

constexpr bool EntryBefore(const RuntimeVersionEntry& a, const RuntimeVersionEntry& b) {
  return a.builtin_code != b.builtin_code ? a.builtin_code < b.builtin_code : a.version < b.version;
}

static_assert(std::is_sorted(std::begin(kRuntimeVersions), std::end(kRuntimeVersions), EntryBefore),
              "kRuntimeVersions must be sorted by builtin code, then version");
static_assert(std::adjacent_find(std::begin(kRuntimeVersions), std::end(kRuntimeVersions),
                                 [](const RuntimeVersionEntry& a, const RuntimeVersionEntry& b) {
                                   return !EntryBefore(a, b);
                                 }) == std::end(kRuntimeVersions),
              "kRuntimeVersions lists an (op, version) pair twice");

// Splits off the text before the next '.' of `rest` (all of it when there is none).
std::string_view NextComponent(std::string_view& rest) {
  const size_t dot = rest.find('.');
  const std::string_view component = rest.substr(0, dot);
  rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  return component;
}

std::optional<uint64_t> ComponentNumber(std::string_view component) {
  uint64_t value = 0;
  const char* end = component.data() + component.size();
  const auto [ptr, ec] = std::from_chars(component.data(), end, value);
  if (component.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::string MinimumRuntimeVersionForOp(int32_t builtin_code, int32_t version) {
  const RuntimeVersionEntry key{builtin_code, version, {}};
  const auto* it =
      std::lower_bound(std::begin(kRuntimeVersions), std::end(kRuntimeVersions), key, EntryBefore);
  if (it == std::end(kRuntimeVersions) || it->builtin_code != builtin_code ||
      it->version != version) {
    return {};
  }
  return std::string(it->runtime_version);
}

int CompareRuntimeVersions(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return static_cast<int>(!a.empty()) - static_cast<int>(!b.empty());
  // Components that are not numbers decide nothing, and when one version runs out first the
  // longer one is newer, as upstream's CompareRuntimeVersion orders them.
  while (!a.empty() && !b.empty()) {
    const std::optional<uint64_t> x = ComponentNumber(NextComponent(a));
    const std::optional<uint64_t> y = ComponentNumber(NextComponent(b));
    if (x && y && *x != *y) return *x < *y ? -1 : 1;
  }
  return static_cast<int>(!a.empty()) - static_cast<int>(!b.empty());
}

RuntimeVersionRequirement MinimumRuntimeVersion(const Model& model) {
  // Distinct (op name, version) pairs, in the order the result lists them; the names stay owned
  // by the model's nodes while this runs.
  std::map<std::pair<std::string_view, int32_t>, int32_t> builtin_pairs;  // -> builtin code
  for (const Subgraph& subgraph : model.subgraphs) {
    for (const Node& node : subgraph.nodes) {
      if (node.kind != NodeKind::kBuiltin) continue;
      builtin_pairs.try_emplace({node.op, node.version}, node.builtin_code);
    }
  }

  RuntimeVersionRequirement result;
  std::vector<OpVersionRequirement> known;
  for (const auto& [pair, builtin_code] : builtin_pairs) {
    OpVersionRequirement requirement{std::string(pair.first), pair.second,
                                     MinimumRuntimeVersionForOp(builtin_code, pair.second)};
    if (requirement.runtime_version.empty()) {
      result.unknown.push_back(std::move(requirement));
      continue;
    }
    if (CompareRuntimeVersions(requirement.runtime_version, result.minimum) > 0) {
      result.minimum = requirement.runtime_version;
    }
    known.push_back(std::move(requirement));
  }
  for (OpVersionRequirement& requirement : known) {
    if (CompareRuntimeVersions(requirement.runtime_version, result.minimum) == 0) {
      result.setting_ops.push_back(std::move(requirement));
    }
  }
  return result;
}

}  // namespace tfa
