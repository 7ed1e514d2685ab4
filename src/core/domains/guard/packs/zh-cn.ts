/**
 * The built-in rules' texts in Simplified Chinese (message, why, suggestion), by rule id. A test keeps
 * it complete: every built-in rule has an entry, and every entry names a built-in rule.
 */
export const ZH_CN: Readonly<Record<string, readonly [message: string, why: string, suggestion: string]>> = {
  'ts/no-eval': [
    'eval 把字符串当作代码执行。',
    'eval 以调用方的作用域执行传入的任何字符串：流入其中的任何输入都是代码注入，还会妨碍打包器、压缩器和 CSP。',
    '用 JSON.parse 解析数据、在映射表中查值，或直接调用函数，而不是把代码拼成字符串。',
  ],
  'ts/no-new-function': [
    'new Function 把字符串编译成代码。',
    'Function 构造函数就是换了名字的 eval：字符串在全局作用域中成为代码，有注入风险，也会被严格的 CSP 拦截。',
    '在源码中直接写出函数，或用查找表在固定的函数之间选择。',
  ],
  'ts/no-implied-eval': [
    '传给 setTimeout/setInterval 的字符串会被当作代码执行。',
    'setTimeout("…") 和 setInterval("…") 会 eval 其字符串参数，注入风险与 eval 相同。',
    '传入函数：setTimeout(() => refresh(), 100)。',
  ],
  'ts/no-non-null-assertion': [
    '非空断言（!）掩盖了可能的 null 或 undefined。',
    'x! 不经检查就告诉编译器值不可能为 null；一旦为 null，代码会在运行时报 "Cannot read properties of undefined"，离出错原因很远。',
    '先检查值（if (!x) return …），使用可选链 x?.y，或让类型真正保证非空。',
  ],
  'ts/no-explicit-any': [
    '显式 any 关闭了类型检查。',
    '类型为 any 的值什么都接受、什么都返回：它周围的类型错误会通过编译到达用户，而且 any 会蔓延到它接触的一切。',
    '使用 unknown 并收窄类型、使用泛型参数，或写出真实的类型。',
  ],
  'ts/no-empty-catch': [
    '空的 catch 块吞掉了错误。',
    '空 catch 隐藏了失败：程序在无人预料的状态下继续运行，日志里也没有任何原因。',
    '处理错误、带上下文记录日志、重新抛出，或写注释说明为什么可以安全地忽略。',
  ],
  'ts/no-async-foreach': [
    'forEach 不会等待异步回调。',
    'forEach 忽略回调返回的 Promise：循环在工作完成之前就“结束”了，错误变成未处理的拒绝，执行顺序也与看上去的不同。',
    '顺序执行用 for…of 加 await，并行执行用 await Promise.all(items.map(async …))。',
  ],
  'ts/await-in-loop': [
    '循环中的 await 让各次迭代依次执行。',
    '每个 await 都要等上一次迭代完成：本可以并行的独立请求要花 n 倍的时间。',
    '迭代相互独立时同时启动：await Promise.all(items.map((item) => work(item)))。顺序重要时保留循环。',
  ],
  'ts/no-debugger': [
    '代码中遗留了 debugger 语句。',
    'debugger 语句会让每个打开开发者工具的用户停下来，它从来不该发布出去。',
    '删除它；改用编辑器中的断点。',
  ],
  'ts/no-inner-html': [
    '赋值 innerHTML/outerHTML 会注入标记。',
    '由数据拼出的标记会执行其中的任何脚本（跨站脚本），还会丢掉被替换节点的事件监听器。',
    '文本用 textContent，节点用 createElement 构建，或先用可靠的清洗库（DOMPurify）处理。',
  ],
  'ts/no-sync-io': [
    '同步文件或进程调用阻塞了事件循环。',
    '同步 I/O 在返回之前停住进程的所有其他任务：在服务器中会卡住所有请求，在 VS Code 扩展中会冻结扩展宿主。',
    '使用 Promise API（fs.promises.readFile、配合 util.promisify 的 execFile）并 await；同步调用只留给启动脚本和命令行工具。',
  ],
  'ts/no-explicit-any-cast': [
    '转换为 any 关闭了类型检查。',
    '`as any` 从此关闭对该值的所有检查，类型错误会通过编译到达用户。',
    '转换为 unknown 再收窄，或给值写出真实的类型。',
  ],
  'ts/no-console-log': [
    '代码中遗留了 console.log。',
    '遗留的调试输出会弄乱日志、可能泄露数据，在库中还会写到别人的控制台。',
    '使用项目的日志记录器，或删除这一行。',
  ],
  'swift/force-cast': [
    '强制转换（as!）在类型不符时会崩溃。',
    '转换失败时 as! 会在运行时触发陷阱：服务器返回的数据或意外类型的单元格会变成用户手中的崩溃。',
    '使用 as? 配合 guard let / if let，并处理另一种情况。',
  ],
  'swift/force-try': [
    '调用抛出错误时 try! 会崩溃。',
    'try! 把调用可能抛出的每个错误都变成崩溃，包括取决于输入、磁盘或网络的错误。',
    '使用 do { try … } catch { … }；当 nil 是合理结果时使用 try?。',
  ],
  'swift/force-unwrap': [
    '强制解包（!）遇到 nil 会崩溃。',
    'x 为 nil 时 x! 会触发陷阱；“永远不可能为 nil”的可选值在下一次重构后就会变成 nil，崩溃出现在离原因很远的地方。',
    '用 guard let / if let 解包，使用可选链 x?.y，或用 ?? 提供默认值。',
  ],
  'swift/closure-captures-self': [
    '存储或长期存在的闭包强引用了 self（循环引用）。',
    'self 持有闭包（存储属性、Combine 订阅、定时器、观察者），闭包又持有 self：两者都不会被释放，页面关闭后闭包仍在运行。',
    '弱引用捕获 self：{ [weak self] in guard let self else { return } … }。',
  ],
  'swift/main-sync': [
    '在主线程上调用 DispatchQueue.main.sync 会死锁。',
    '在主线程上调用时 main.sync 会永远等待自己；在其他线程上调用会让该线程阻塞在 UI 工作上。',
    '使用 DispatchQueue.main.async，或把函数标记为 @MainActor 并 await 它。',
  ],
  'swift/thread-sleep': [
    '休眠会阻塞线程。',
    '在主线程上休眠会冻结界面（启动时卡住的应用会被看门狗杀掉）；在并发代码中会占住协作线程池的线程。',
    '在异步代码中使用 try await Task.sleep(for:)，或用 DispatchQueue.asyncAfter 安排稍后执行。',
  ],
  'objc/block-retain-cycle': [
    '被 self 存储的 block 捕获了 self（循环引用）。',
    'self 通过属性或实例变量持有 block，block 又持有 self：对象永远不会被释放，block 可能在已关闭的页面上运行。',
    '捕获弱引用：__weak typeof(self) weakSelf = self; 并使用 weakSelf（需要时在内部转为强引用）。',
  ],
  'objc/dispatch-sync-main': [
    '在主线程上 dispatch_sync 到主队列会死锁。',
    '在主线程上调用时 dispatch_sync(main) 会永远等待自己；在其他线程上会让该线程阻塞在 UI 工作上。',
    '使用 dispatch_async(dispatch_get_main_queue(), ^{ … })。',
  ],
  'objc/strong-delegate': [
    'delegate 属性是强引用（循环引用）。',
    'delegate 通常拥有持有它的对象；反向的强引用会形成循环，两者都不会被释放。',
    '把 delegate 声明为 weak：@property (nonatomic, weak) id<FooDelegate> delegate;',
  ],
  'objc/main-thread-sleep': [
    '休眠会阻塞线程。',
    '在主线程上休眠会冻结界面，系统看门狗会终止失去响应的应用。',
    '用 dispatch_after 稍后执行，或把工作移出主线程。',
  ],
  'py/bare-except': [
    '裸 except 也会捕获 KeyboardInterrupt 和 SystemExit。',
    'except: 会捕获一切，包括 Ctrl-C 和 sys.exit()，程序因此无法停止，真正的错误也被隐藏。',
    '捕获预期的异常，至少写成 `except Exception:`。',
  ],
  'py/except-pass': [
    '异常被 pass 吞掉了。',
    'except …: pass 会不留痕迹地丢掉错误：程序在无人预料的状态下继续运行。',
    '记录异常、处理它，或用 contextlib.suppress(SpecificError) 表明该错误是预期的。',
  ],
  'py/no-eval': [
    'eval/exec 把字符串当作代码执行。',
    'eval 和 exec 会执行传入的任何字符串：流入其中的任何输入都是代码注入。',
    '字面量用 ast.literal_eval，数据用 json.loads，选择函数用分派字典。',
  ],
  'py/mutable-default': [
    '可变默认参数在多次调用之间共享。',
    '默认值只在定义函数时创建一次：一次调用中追加的元素会出现在下一次调用中。',
    '默认为 None 并在函数内创建列表：def f(items=None): items = [] if items is None else items',
  ],
  'py/shell-true': [
    'shell=True 的 subprocess 通过 shell 运行命令。',
    '使用 shell=True 时，任何插入的值都可能注入 shell 命令（引号、;、$()）。',
    '以列表形式传入命令且不用 shell：subprocess.run(["git", "log", ref], check=True)。',
  ],
  'py/yaml-load': [
    'yaml.load 可以构造任意对象。',
    '使用默认或完整加载器时，YAML 文档可以构造 Python 对象并执行代码。',
    '使用 yaml.safe_load(text)。',
  ],
  'py/blocking-sleep-in-async': [
    'async def 中的 time.sleep 会阻塞事件循环。',
    'time.sleep 会停住整个事件循环：程序的其他所有任务也都在等待。',
    '使用 await asyncio.sleep(seconds)。',
  ],
  'go/discarded-error': [
    '调用返回的错误被丢弃了。',
    '把错误赋给 _ 会隐藏失败：其他返回值是零值，程序却带着它们继续运行。',
    '检查错误：if err != nil { return fmt.Errorf("…: %w", err) }。',
  ],
  'go/empty-error-check': [
    '检查了错误却没有处理。',
    '空的 if err != nil 块吞掉了错误，看上去却像是处理过了。',
    '返回或包装错误，或带上下文记录日志。',
  ],
  'go/defer-in-loop': [
    '循环中的 defer 要到函数返回时才执行。',
    '被推迟的调用会一直堆积到函数返回：每次迭代打开的文件和锁在整个循环期间都不会释放（打开文件过多、锁被长期持有）。',
    '把循环体移到一个函数中（让 defer 每次迭代执行），或在迭代末尾显式关闭。',
  ],
  'go/http-default-client': [
    '默认的 HTTP 客户端没有超时。',
    'http.Get 等函数使用 http.DefaultClient，它会永远等待停止响应的服务器；goroutine 和连接会不断堆积。',
    '使用带超时的客户端：client := &http.Client{Timeout: 10 * time.Second}; client.Get(url)，或使用带截止时间的 context 请求。',
  ],
  'go/panic': [
    '库代码中的 panic。',
    '除非有人 recover，panic 会让整个程序崩溃；调用方无法把它当作错误来处理。',
    '返回 error；panic 只留给运行时绝不可能发生的编程错误。',
  ],
  'java/empty-catch': [
    '空的 catch 块吞掉了异常。',
    '异常不留痕迹地消失了；程序在无人计划的状态下继续运行。',
    '处理它、带上下文记录日志，或包装后重新抛出；如果忽略是对的，请用注释说明原因。',
  ],
  'java/print-stack-trace': [
    'printStackTrace 写到 stderr 而不是日志。',
    '堆栈绕过了日志配置（级别、上下文、发送到日志存储），而错误却被当作已处理。',
    '记录日志：log.error("what failed", e); 或重新抛出。',
  ],
  'java/string-reference-equality': [
    '用 == 比较字符串比较的是引用。',
    '在 Java 中，字符串的 == 只有在同一个对象时才为 true：运行时构造的相等字符串比较结果为 false。',
    '使用 "literal".equals(value) 或 Objects.equals(a, b)。',
  ],
  'kotlin/not-null-assertion': [
    '!! 遇到 null 会抛出 NullPointerException。',
    '!! 在值为 null 时把可空值变成崩溃，而这正是类型所警告的情况。',
    '使用 ?. 配合 ?: 提供默认值、requireNotNull(x) { "why" }，或智能转换检查。',
  ],
  'kotlin/run-blocking': [
    'runBlocking 会阻塞调用线程。',
    'runBlocking 会挂住线程直到协程结束：在 Android 主线程上就是 ANR；在协程内部可能让调度器死锁。',
    '把调用方改为 suspend 函数，或在与生命周期绑定的作用域中启动（viewModelScope.launch { … }）。',
  ],
  'kotlin/global-scope': [
    'GlobalScope 中的协程永远不会被取消。',
    'GlobalScope 中的工作比启动它的页面或请求活得更久：泄漏、浪费工作，还会更新已销毁的界面。',
    '使用与生命周期绑定的作用域（viewModelScope、lifecycleScope）或你会取消的作用域。',
  ],
  'java/thread-sleep': [
    'Thread.sleep 会阻塞线程。',
    '休眠的线程什么也不做：在 UI 线程上应用会冻结，在线程池中会占住工作线程，在测试中会让测试变慢且不稳定。',
    '安排稍后执行（ScheduledExecutorService、协程中的 delay()），或等待你真正需要的条件。',
  ],
  'rust/unwrap': [
    '.unwrap() 遇到 None 或 Err 会 panic。',
    'unwrap 把缺失的值或错误变成让线程崩溃的 panic，消息里却没有说明原因。',
    '用 ? 传播，用 match / if let 处理，或在确实不会失败的地方用 .expect("为什么不会失败")。',
  ],
  'rust/todo': [
    '到达 todo!/unimplemented! 时会 panic。',
    '这些宏能正常编译，却会在运行时 panic：发布出去的占位符就是一个等待输入触发的崩溃。',
    '实现该分支，或返回说明不支持什么的错误。',
  ],
  'rust/transmute': [
    'mem::transmute 不经检查地重新解释比特位。',
    '只要大小、对齐或有效性不变式不成立，transmute 就是未定义行为，而编译器无法检查它们。',
    '使用安全的转换（from_ne_bytes、as 转换、对普通数据用 bytemuck::cast）。',
  ],
  'rust/unsafe-block': [
    'unsafe 块。',
    '在 unsafe 内部编译器不再证明内存安全；每个 unsafe 块都需要一段经过审阅的正确性论证。',
    '让它尽量小，并加上 // SAFETY: 注释说明其不变式。',
  ],
  'rust/thread-sleep': [
    '异步代码中的 std::thread::sleep 会阻塞执行器线程。',
    '在异步代码中，阻塞式休眠会卡住执行器线程以及调度在其上的所有任务。',
    '在异步代码中使用 tokio::time::sleep(d).await（或所用运行时的等价函数）。',
  ],
  'rust/ignored-result': [
    '用 let _ = 丢弃了 Result。',
    'let _ = call(); 让 #[must_use] 失声：调用失败时没有人会察觉。',
    '处理或传播错误（call()?），或记录日志：if let Err(e) = call() { warn!(…) }。',
  ],
  'common/merge-conflict-marker': [
    '文件中遗留了合并冲突标记。',
    '未解决的冲突无法编译，更糟的是在标记恰好是合法文本的语言中能够编译。',
    '解决冲突并删除标记。',
  ],
  'common/private-key': [
    '源码中提交了私钥。',
    '仓库中的密钥对所有能访问仓库的人可读，存在于每个克隆中，并永远留在历史里。',
    '删除它、轮换密钥，并从密钥存储或环境变量中加载。',
  ],
};
