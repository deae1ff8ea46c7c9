// Each op's options in Graph JSON: VisitOptionFields lists every OpOptions field once, under the
// name Graph JSON gives it; the reader (ReadOptions) and the writer (OptionJson,
// graph_json_writer.cc) both go through it. An option a new op reads is one line there. Internal to
// libanalysis/model.
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_OPTIONS_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_OPTIONS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/graph_json_values.h"

namespace tfa::graph_json {

const char* PaddingName(Padding padding);

// Every OpOptions field under the name Graph JSON gives it (the field's own), visited as
// visit(name, field of a, same field of b): the writer compares with the defaults, the reader
// fills one.
template <typename A, typename B, typename Visit>
void VisitOptionFields(A& a, B& b, Visit&& visit) {
  visit("fused_activation", a.fused_activation, b.fused_activation);
  visit("padding", a.padding, b.padding);
  visit("stride_w", a.stride_w, b.stride_w);
  visit("stride_h", a.stride_h, b.stride_h);
  visit("dilation_w", a.dilation_w, b.dilation_w);
  visit("dilation_h", a.dilation_h, b.dilation_h);
  visit("stride_d", a.stride_d, b.stride_d);
  visit("dilation_d", a.dilation_d, b.dilation_d);
  visit("filter_w", a.filter_w, b.filter_w);
  visit("filter_h", a.filter_h, b.filter_h);
  visit("depth_multiplier", a.depth_multiplier, b.depth_multiplier);
  visit("axis", a.axis, b.axis);
  visit("batch_dims", a.batch_dims, b.batch_dims);
  visit("block_size", a.block_size, b.block_size);
  visit("num_splits", a.num_splits, b.num_splits);
  visit("keep_dims", a.keep_dims, b.keep_dims);
  visit("align_corners", a.align_corners, b.align_corners);
  visit("half_pixel_centers", a.half_pixel_centers, b.half_pixel_centers);
  visit("pot_scale_int16", a.pot_scale_int16, b.pot_scale_int16);
  visit("adj_x", a.adj_x, b.adj_x);
  visit("adj_y", a.adj_y, b.adj_y);
  visit("keep_num_dims", a.keep_num_dims, b.keep_num_dims);
  visit("weights_format", a.weights_format, b.weights_format);
  visit("asymmetric_quantize_inputs", a.asymmetric_quantize_inputs, b.asymmetric_quantize_inputs);
  visit("time_major", a.time_major, b.time_major);
  visit("merge_outputs", a.merge_outputs, b.merge_outputs);
  visit("lstm_basic_kernel", a.lstm_basic_kernel, b.lstm_basic_kernel);
  visit("cell_clip", a.cell_clip, b.cell_clip);
  visit("proj_clip", a.proj_clip, b.proj_clip);
  visit("svdf_rank", a.svdf_rank, b.svdf_rank);
  visit("beta", a.beta, b.beta);
  visit("alpha", a.alpha, b.alpha);
  visit("radius", a.radius, b.radius);
  visit("bias", a.bias, b.bias);
  visit("exclusive", a.exclusive, b.exclusive);
  visit("reverse", a.reverse, b.reverse);
  visit("seq_dim", a.seq_dim, b.seq_dim);
  visit("batch_dim", a.batch_dim, b.batch_dim);
  visit("boundaries", a.boundaries, b.boundaries);
  visit("mirror_pad_mode", a.mirror_pad_mode, b.mirror_pad_mode);
  visit("begin_mask", a.begin_mask, b.begin_mask);
  visit("end_mask", a.end_mask, b.end_mask);
  visit("ellipsis_mask", a.ellipsis_mask, b.ellipsis_mask);
  visit("new_axis_mask", a.new_axis_mask, b.new_axis_mask);
  visit("shrink_axis_mask", a.shrink_axis_mask, b.shrink_axis_mask);
  visit("offset", a.offset, b.offset);
  visit("new_shape", a.new_shape, b.new_shape);
  visit("squeeze_dims", a.squeeze_dims, b.squeeze_dims);
  visit("then_subgraph", a.then_subgraph, b.then_subgraph);
  visit("else_subgraph", a.else_subgraph, b.else_subgraph);
  visit("cond_subgraph", a.cond_subgraph, b.cond_subgraph);
  visit("body_subgraph", a.body_subgraph, b.body_subgraph);
  visit("init_subgraph", a.init_subgraph, b.init_subgraph);
  visit("subgraph", a.subgraph, b.subgraph);
  visit("composite_name", a.composite_name, b.composite_name);
  visit("custom_options_size", a.custom_options_size, b.custom_options_size);
  visit("custom_options", a.custom_options, b.custom_options);
}

// One option's value, checked (graph_json_options.cc).
Status ReadOption(const json& v, const std::string& path, int32_t& out);
Status ReadOption(const json& v, const std::string& path, uint64_t& out);
Status ReadOption(const json& v, const std::string& path, bool& out);
Status ReadOption(const json& v, const std::string& path, float& out);
Status ReadOption(const json& v, const std::string& path, std::string& out);
Status ReadOption(const json& v, const std::string& path, std::vector<int32_t>& out);
Status ReadOption(const json& v, const std::string& path, std::vector<float>& out);
Status ReadOption(const json& v, const std::string& path, std::vector<uint8_t>& out);
Status ReadOption(const json& v, const std::string& path, Activation& out);
Status ReadOption(const json& v, const std::string& path, Padding& out);

Status ReadOptions(const json& v, const std::string& path, OpOptions& o);

using ordered_json = nlohmann::ordered_json;

// An option's value as the writer puts it.
ordered_json OptionJson(Activation a);
ordered_json OptionJson(Padding p);
template <typename T>
ordered_json OptionJson(const T& value) {
  return value;
}

}  // namespace tfa::graph_json

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_OPTIONS_H_
