import fal_client

result = fal_client.subscribe(
    "fal-ai/flux/dev",
    arguments={
        "prompt": "Astronaut riding a horse",
    },
)
 
print(result)