// Checked conversion between JSON lists and Eigen matrices.
#include "engine_io/tensor_json.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/json_input.hpp"

namespace proofdeck::engine_io {

namespace {

std::string size_text(Index size) {
  return size == kAnySize ? "any number of" : std::to_string(size);
}

template <typename T>
T number_from_json(const nlohmann::json& value, const std::string& where) {
  if (!value.is_number()) {
    throw InputError("spec.type", fmt::format("{}: expected a number, got {} {}", where,
                                              json_kind(value), json_preview(value)));
  }
  const double number = value.get<double>();
  if (!std::isfinite(number) ||
      std::abs(number) > static_cast<double>(std::numeric_limits<T>::max())) {
    throw InputError("spec.range",
                     fmt::format("{}: {} is out of range for {}", where, json_preview(value),
                                 sizeof(T) == 4 ? "float32" : "float64"));
  }
  return static_cast<T>(number);
}

void require_list(const nlohmann::json& value, const std::string& where,
                  const std::string& expected) {
  if (!value.is_array()) {
    throw InputError("spec.type", fmt::format("{}: expected {}, got {} {}", where, expected,
                                              json_kind(value), json_preview(value)));
  }
}

}  // namespace

template <typename T>
engine::Matrix<T> matrix_from_json(const nlohmann::json& value, const std::string& where,
                                   Index rows, Index cols) {
  const std::string expected =
      rows != kAnySize && cols != kAnySize
          ? fmt::format("a ({}, {}) matrix (a list of {} rows of {} numbers)", rows, cols, rows,
                        cols)
          : fmt::format("a matrix (a list of {} rows of {} numbers)", size_text(rows),
                        size_text(cols));
  require_list(value, where, expected);
  const auto row_count = static_cast<Index>(value.size());
  if ((rows != kAnySize && row_count != rows) || row_count == 0) {
    throw InputError("spec.shape", fmt::format("{}: expected {}, got {} row{}", where, expected,
                                               row_count, row_count == 1 ? "" : "s"));
  }
  Index col_count = cols;
  if (col_count == kAnySize) {
    require_list(value.front(), where + "[0]", "a row of numbers");
    col_count = static_cast<Index>(value.front().size());
    if (col_count == 0) {
      throw InputError("spec.shape",
                       fmt::format("{}[0]: expected a row of at least one number, got []", where));
    }
  }
  // Every row's length is checked before anything is allocated.
  for (Index r = 0; r < row_count; ++r) {
    const auto& row = value[static_cast<std::size_t>(r)];
    const std::string row_where = fmt::format("{}[{}]", where, r);
    require_list(row, row_where, fmt::format("a row of {} numbers", col_count));
    if (static_cast<Index>(row.size()) != col_count) {
      throw InputError("spec.shape",
                       fmt::format("{}: expected a row of {} numbers, got {} (the "
                                   "matrix must be ({}, {}))",
                                   row_where, col_count, row.size(), row_count, col_count));
    }
  }
  engine::Matrix<T> matrix(row_count, col_count);
  for (Index r = 0; r < row_count; ++r) {
    const auto& row = value[static_cast<std::size_t>(r)];
    const std::string row_where = fmt::format("{}[{}]", where, r);
    for (Index c = 0; c < col_count; ++c) {
      matrix(r, c) = number_from_json<T>(row[static_cast<std::size_t>(c)],
                                         fmt::format("{}[{}]", row_where, c));
    }
  }
  return matrix;
}

template <typename T>
engine::Vector<T> vector_from_json(const nlohmann::json& value, const std::string& where,
                                   Index size) {
  const std::string expected = fmt::format("a list of {} numbers", size_text(size));
  require_list(value, where, expected);
  const auto count = static_cast<Index>(value.size());
  if (size != kAnySize && count != size) {
    throw InputError("spec.shape", fmt::format("{}: expected {}, got {}", where, expected, count));
  }
  engine::Vector<T> vector(count);
  for (Index i = 0; i < count; ++i) {
    vector[i] =
        number_from_json<T>(value[static_cast<std::size_t>(i)], fmt::format("{}[{}]", where, i));
  }
  return vector;
}

engine::Positions positions_from_json(const nlohmann::json& value, const std::string& where,
                                      bool allow_negative) {
  require_list(value, where, "a list of integer positions");
  if (value.empty()) {
    throw InputError("spec.shape",
                     fmt::format("{}: expected at least one position, got []", where));
  }
  engine::Positions positions;
  positions.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto& entry = value[i];
    if (!entry.is_number_integer()) {
      throw InputError("spec.type", fmt::format("{}[{}]: expected an integer position, got {} {}",
                                                where, i, json_kind(entry), json_preview(entry)));
    }
    const auto position = entry.get<std::int64_t>();
    if (position < 0 && !allow_negative) {
      throw InputError("spec.range",
                       fmt::format("{}[{}]: positions start at 0, got {}", where, i, position));
    }
    positions.push_back(position);
  }
  return positions;
}

template <typename T>
nlohmann::ordered_json to_json(const engine::Matrix<T>& matrix) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Index r = 0; r < matrix.rows(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Index c = 0; c < matrix.cols(); ++c)
      row.push_back(matrix(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

template <typename T>
nlohmann::ordered_json to_json(const engine::Vector<T>& vector) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (Index i = 0; i < vector.size(); ++i)
    list.push_back(vector[i]);
  return list;
}

template engine::Matrix<float> matrix_from_json<float>(const nlohmann::json&, const std::string&,
                                                       Index, Index);
template engine::Matrix<double> matrix_from_json<double>(const nlohmann::json&, const std::string&,
                                                         Index, Index);
template engine::Vector<float> vector_from_json<float>(const nlohmann::json&, const std::string&,
                                                       Index);
template engine::Vector<double> vector_from_json<double>(const nlohmann::json&, const std::string&,
                                                         Index);
template nlohmann::ordered_json to_json<float>(const engine::Matrix<float>&);
template nlohmann::ordered_json to_json<double>(const engine::Matrix<double>&);
template nlohmann::ordered_json to_json<float>(const engine::Vector<float>&);
template nlohmann::ordered_json to_json<double>(const engine::Vector<double>&);

}  // namespace proofdeck::engine_io
