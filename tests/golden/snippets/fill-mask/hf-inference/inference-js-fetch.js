async function query(data) {
	const response = await fetch(
		"https://router.huggingface.co/hf-inference/models/google-bert/bert-base-uncased",
		{
			headers: {
				Authorization: `Bearer ${process.env.HF_TOKEN}`,
				"Content-Type": "application/json",
			},
			method: "POST",
			body: JSON.stringify(data),
		}
	);
	const result = await response.json();
	return result;
}

query({ inputs: "The answer to the universe is [MASK]." }).then((response) => {
    console.log(JSON.stringify(response));
});