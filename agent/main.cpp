#include <iostream>

#include "agent/app/agent_app.hpp"

int main(int argc, char** argv) {
  return koord::agent::app::runAgent(argc, argv, std::cout, std::cerr);
}
