from workers.llm_worker.server import main

main()
