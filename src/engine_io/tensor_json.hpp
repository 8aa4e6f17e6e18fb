// Tensors in JSON as PyTorch's tolist() writes them: a matrix is a list of rows, a vector a flat
// list. Readers check every shape and entry and name the field ("params.weight[3][2]") in errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/positional.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine_io {

using engine::Index;

inline constexpr Index kAnySize = -1;

// A (rows, cols) matrix; kAnySize accepts any count (at least one). InputError otherwise.
template <typename T>
engine::Matrix<T> matrix_from_json(const nlohmann::json& value, const std::string& where,
                                   Index rows, Index cols);

template <typename T>
engine::Vector<T> vector_from_json(const nlohmann::json& value, const std::string& where,
                                   Index size);

// A list of integer positions, each ≥ 0 unless allow_negative.
engine::Positions positions_from_json(const nlohmann::json& value, const std::string& where,
                                      bool allow_negative);

template <typename T>
nlohmann::ordered_json to_json(const engine::Matrix<T>& matrix);
template <typename T>
nlohmann::ordered_json to_json(const engine::Vector<T>& vector);

}  // namespace proofdeck::engine_io
