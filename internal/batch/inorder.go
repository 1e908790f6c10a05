package batch

import "sync"

// InOrder does work on items 0 to n-1 with up to jobs goroutines at once
// and hands the results to emit in item order, each as soon as it and all
// before it are done. A work that panics (a bug) gives recovered's result
// of its panic in its place; the other items' results are kept.
func InOrder[R any](n, jobs int, work func(int) R, recovered func(i int, panicked any) R, emit func(int, R)) {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]chan R, n)
	for i := range results {
		results[i] = make(chan R, 1)
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	go func() {
		for i := range n {
			sem <- struct{}{}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				defer func() { <-sem }()
				defer func() {
					if r := recover(); r != nil {
						results[i] <- recovered(i, r)
					}
				}()
				results[i] <- work(i)
			}(i)
		}
	}()
	for i := range n {
		emit(i, <-results[i])
	}
	wg.Wait()
}
