// proofdeck's entry point: hands the command line and the real streams to cli::run.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "engine/blocking.hpp"

int main(int argc, char** argv) {
  proofdeck::engine::set_product_threads(
      1);  // demo-sized products; `engine bench --threads` opts in
  std::ios::sync_with_stdio(false);
  proofdeck::cli::Io io{std::cin,
                        std::cout,
                        std::cerr,
                        isatty(STDOUT_FILENO) == 1,
                        [](const char* name) { return std::getenv(name); },
                        STDIN_FILENO};
  io.measure_columns = [] {
    winsize size{};
    return ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? static_cast<int>(size.ws_col) : 0;
  };
  if (io.out_is_terminal) io.terminal_columns = io.measure_columns();
  return proofdeck::cli::run(std::vector<std::string>(argv, argv + argc), io);
}
